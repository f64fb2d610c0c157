import { type IncomingHttpHeaders, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request on a fresh connection, no redirect following, whole body buffered. */
export function httpGet(
  url: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET that retries through 429/503 answers without waiting, as a patient crawler would. */
export async function httpGetPatiently(url: string, attempts = 4): Promise<RawResponse> {
  let response = await httpGet(url);
  for (let i = 1; i < attempts && (response.status === 429 || response.status === 503); i++)
    response = await httpGet(url);
  return response;
}

/** The <main> element's inner HTML: the main content that truth about changes and duplicates is about. */
export function mainOf(body: Buffer | string): string | undefined {
  return /<main>([\s\S]*?)<\/main>/.exec(body.toString())?.[1];
}
