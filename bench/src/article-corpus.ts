import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export interface CorpusPage {
  id: string;
  url: string;
  html: string;
  truth: string;
}

/** The article-extraction benchmark as copied into the repository (fixtures/, MIT, with its licence). */
export const defaultCorpusDir = resolve(
  fileURLToPath(new URL('../../fixtures/article-extraction-benchmark', import.meta.url)),
);

/** The benchmark's pages (gzipped UTF-8 HTML) with their gold article bodies, in a stable order. */
export function loadArticleCorpus(dir = defaultCorpusDir): CorpusPage[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { articleBody?: string; url: string }
  >;
  const files = new Set(readdirSync(join(dir, 'html')));
  return Object.keys(truth)
    .sort()
    .filter((id) => files.has(`${id}.html.gz`))
    .map((id) => ({
      id,
      url: truth[id]!.url,
      html: gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8'),
      truth: truth[id]!.articleBody ?? '',
    }));
}
