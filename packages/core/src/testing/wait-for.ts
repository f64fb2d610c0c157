/**
 * Polls until the check passes or the time is up; the last failure is rethrown for a useful message,
 * prefixed with what was awaited (`what`) when given (a function is read at the timeout, e.g. for a log tail).
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 20,
  what?: string | (() => string),
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== false && result !== undefined && result !== null)
        return result as Exclude<T, false | null | undefined>;
      lastError = new Error(`condition still ${String(result)}`);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      if (what === undefined) throw lastError;
      const described = typeof what === 'function' ? what() : what;
      throw new Error(`waited ${timeoutMs} ms for ${described}: ${String(lastError)}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
