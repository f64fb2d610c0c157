import { readFile } from 'node:fs/promises';
import type { Browser, CDPSession } from 'playwright-core';

export interface BrowserUsage {
  /** Proportional set size of every browser process (shared pages split between them), in bytes. */
  pssBytes: number;
  /** CPU time of every browser process so far, in seconds. */
  cpuSeconds: number;
  processes: number;
}

/**
 * What a browser costs, from Chromium's own process list (browser, renderers, GPU, network and
 * utility processes) and Linux's /proc. PSS, not RSS: the renderers share most of their pages,
 * and summing RSS would count them once per process. Null where /proc does not exist.
 */
export class BrowserMemory {
  private session: Promise<CDPSession> | null = null;

  constructor(private readonly browser: Browser) {}

  async usage(): Promise<BrowserUsage | null> {
    this.session ??= this.browser.newBrowserCDPSession();
    const { processInfo } = (await (await this.session).send('SystemInfo.getProcessInfo')) as {
      processInfo: { id: number; cpuTime: number }[];
    };
    let pssBytes = 0;
    let measured = 0;
    for (const process of processInfo) {
      const kib = await readFile(`/proc/${process.id}/smaps_rollup`, 'utf8').then(
        (text) => Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? Number.NaN),
        () => Number.NaN,
      );
      if (Number.isNaN(kib)) continue;
      pssBytes += kib * 1024;
      measured++;
    }
    if (measured === 0) return null;
    return {
      pssBytes,
      cpuSeconds: processInfo.reduce((sum, process) => sum + process.cpuTime, 0),
      processes: measured,
    };
  }
}
