/**
 * What to undo if the bench is interrupted (Ctrl-C, SIGTERM): child crawlers and services to
 * stop, names on the shared stack to drop. Each step registers its undo and removes it when done.
 */
const cleanups = new Set<() => Promise<unknown> | unknown>();

export function registerCleanup(cleanup: () => Promise<unknown> | unknown): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every registered undo, newest first, then exits with the signal's conventional status. */
export function cleanUpOnSignals(log: (line: string) => void): void {
  const stop = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping children and dropping this run's names on the stack`);
    void (async () => {
      for (const cleanup of [...cleanups].reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    })();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
