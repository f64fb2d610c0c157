import { Agent, request } from 'undici';

export interface RawResult {
  requests: number;
  seconds: number;
  perSecond: number;
  errors: number;
}

/**
 * The physical limit of fetching on this machine: plain undici GETs of the same URLs at the same
 * concurrency, bodies read and dropped, nothing else.
 */
export async function rawGets(urls: string[], concurrency: number, connectionsPerOrigin: number): Promise<RawResult> {
  const agent = new Agent({ connections: connectionsPerOrigin, keepAliveTimeout: 10_000 });
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        try {
          const response = await request(url, { dispatcher: agent });
          for await (const _chunk of response.body) {
            // Read to the end, as a crawler must.
          }
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { requests: urls.length, seconds, perSecond: urls.length / seconds, errors };
}
