import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../../dist/service/heap-growth.js', import.meta.url));
const run = promisify(execFile);

/**
 * A process that keeps 24 MB of page-sized arrays alive in a ring and allocates 320 MB through it,
 * its heap read as it goes: the heap used at its highest, in MB. V8 flags are process-wide, so
 * each setting gets a process of its own.
 */
async function peakHeapMb(percent: number): Promise<number> {
  const script = `
    const { applyHeapGrowth } = await import(${JSON.stringify(built)});
    applyHeapGrowth(${percent});
    const ring = new Array(600);
    let peak = 0;
    for (let i = 0; i < 8000; i++) {
      ring[i % ring.length] = new Array(5000).fill(i);
      if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    process.stdout.write(String(peak / 1048576));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return Number(stdout);
}

describe('applyHeapGrowth', () => {
  it('keeps the heap nearer its live set than V8 left to itself does', async () => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
    const [own, capped] = await Promise.all([peakHeapMb(0), peakHeapMb(50)]);
    expect(capped).toBeLessThan(own * 0.8);
  }, 120_000);
});
