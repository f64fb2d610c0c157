import type { PageInput } from '@crawler/linkextract';
import { startTestWeb } from '@crawler/testweb';

/** Every HTML page of the test web's full profile, fetched once into memory with the charset its truth names. */
export async function loadTestWebPages(seed = 1): Promise<PageInput[]> {
  const web = await startTestWeb({ seed });
  try {
    const truth = web.groundTruth();
    const slow = new Set(truth.slow.map((entry) => entry.url));
    const flaky = new Set(truth.flaky.map((entry) => entry.url));
    const charsets = new Map(truth.charsets.map((entry) => [entry.url, entry.charset]));
    const pages: PageInput[] = [];
    for (const url of truth.pages) {
      if (slow.has(url) || flaky.has(url)) continue;
      const response = await fetch(url, { redirect: 'manual' });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) continue;
      pages.push({
        body,
        finalUrl: url,
        depth: 1,
        mediaType: 'text/html',
        charset: charsets.get(url) ?? 'utf-8',
        headers: {},
      });
    }
    return pages;
  } finally {
    await web.close();
  }
}
