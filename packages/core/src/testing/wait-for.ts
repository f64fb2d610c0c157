/** Polls until the check passes or the time is up; the last failure is rethrown for a useful message. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await check();
      if (result !== false && result !== undefined && result !== null) return result;
      lastError = new Error(`condition still ${String(result)}`);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw lastError;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
