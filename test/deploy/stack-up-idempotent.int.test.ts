import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkSameStack } from '../reliability/support/stack-control.js';
import { repoRoot } from '../reliability/support/stack-env.js';

const run = promisify(execFile);

/** `stack.sh status` lines as name -> pid. */
async function pids(): Promise<Map<string, string>> {
  const { stdout } = await run('bash', [`${repoRoot}deploy/local/stack.sh`, 'status'], { env: process.env });
  return new Map(
    [...stdout.matchAll(/^(\S+)\s+\S+(?: \S+)*\s+up\s+pid (\d+)$/gm)].map(([, name, pid]) => [name!, pid!]),
  );
}

/** A second `npm run stack:up` on a running stack is a no-op: nothing restarted, every component says so. */
describe('stack:up on a running stack', () => {
  it('leaves every process as it is and says each is already running', async () => {
    for (const component of ['kafka', 'elasticsearch', 'hbase', 'redis'] as const) checkSameStack(component);
    const before = await pids();
    expect(before.size).toBeGreaterThanOrEqual(9);
    const { stdout, stderr } = await run('bash', [`${repoRoot}deploy/local/stack.sh`, 'up'], {
      env: process.env,
      timeout: 120_000,
    });
    const said = `${stdout}${stderr}`;
    for (const component of ['kafka', 'elasticsearch', 'hbase', 'redis'])
      expect(said).toMatch(new RegExp(`\\[${component}\\] already running`));
    expect(await pids()).toEqual(before);
  }, 180_000);
});
