import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { memoryOf, reapedChildrenCpuSeconds } from '../proc-stats.js';
import { runPeer } from './runner-main.js';
import { isSavedPage, keptByWget, parseWgetLine, type WgetSaved } from './wget-log.js';

/** Links a page crawl leaves alone: style sheets, scripts, images, fonts, and `<link>`ed XML (OpenSearch). */
export const WGET_REJECT_REGEX = '\\.(css|js|png|gif|jpe?g|svg|ico|woff2?|ttf|eot|xml)(\\?.*)?$';
const SAMPLE_MS = 50;

/**
 * Debian's wget mirroring the sites as its manual shows it: recursive to any depth, below the
 * seeds only, robots.txt obeyed, one request at a time (wget has no concurrency), no page
 * requisites, every file kept on disk. The runner only starts it and reads its log; wget's own
 * CPU (waited for, so exact) and peak memory (sampled) are what the harness records.
 */
await runPeer(async (config) => {
  const version = /Wget (\S+)/.exec(execFileSync('wget', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  const dir = mkdtempSync(join(tmpdir(), 'bench-wget-'));
  return async () => {
    const started = performance.now();
    const cpuBefore = reapedChildrenCpuSeconds();
    const child = spawn(
      'wget',
      [
        '--recursive',
        '--level=inf',
        '--no-parent',
        '-e',
        'robots=on',
        '--no-verbose',
        `--reject-regex=${WGET_REJECT_REGEX}`,
        ...(config.userAgent ? [`--user-agent=${config.userAgent}`] : []),
        ...config.seeds,
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const killTimer = setTimeout(() => child.kill('SIGKILL'), config.timeLimitMs);
    let peakBytes = 0;
    const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, memoryOf(child.pid!)?.peak ?? 0)), SAMPLE_MS);
    const saved: WgetSaved[] = [];
    let last = started;
    for await (const line of createInterface({ input: child.stderr! })) {
      const entry = parseWgetLine(line);
      if (!entry) continue;
      saved.push(entry);
      if (isSavedPage(entry)) last = performance.now();
    }
    // Exit status 8 (a server answered with an error, e.g. a broken link's 404) is a normal end.
    const code = await exited;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    clearTimeout(killTimer);
    const kept = keptByWget(saved).filter((entry) => existsSync(join(dir, entry.file)));
    rmSync(dir, { recursive: true, force: true });
    const pages = saved.filter(isSavedPage);
    return {
      pages: pages.length,
      okUrls: pages.map((entry) => entry.url),
      storedUrls: kept.map((entry) => entry.url),
      seconds,
      lastPageSeconds: (last - started) / 1000,
      notes: { version, exitCode: code, filesKept: kept.length },
      child: {
        cpuSeconds: reapedChildrenCpuSeconds() - cpuBefore,
        peakRssMb: Math.round(peakBytes / 1024 / 1024),
      },
    };
  };
});
