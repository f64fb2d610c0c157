import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { bedTruth, scoreTexts } from './bed-client.js';
import { extractBedTexts } from './bed-page-texts.js';

/**
 * `node bench/dist/realweb/bed-texts.js --truth TRUTH --out TEXTS [--worst N]`: the main text of
 * every page of the real-web bed through link extraction's page parser, without a crawl, written
 * as {url: text} and scored by `bed.py recall` against each page's content area; prints the
 * score and the parser's time per page (the truth is computed into TRUTH when it is missing).
 */
const { values } = parseArgs({
  options: {
    truth: { type: 'string' },
    out: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    worst: { type: 'string', default: '0' },
  },
});
if (!values.truth || !values.out) {
  process.stderr.write('usage: bed-texts.js --truth TRUTH_JSON --out TEXTS_JSON [--rounds N] [--worst N]\n');
  process.exit(2);
}
const truth = await bedTruth(values.truth);
// One untimed pass over a few pages first: the first pages would otherwise pay for the JIT.
await extractBedTexts(truth.pages.slice(0, 200));
const texts = await extractBedTexts(truth.pages, Number(values.rounds));
writeFileSync(values.out, JSON.stringify(Object.fromEntries([...texts].map(([url, page]) => [url, page.text]))));

const score = await scoreTexts(values.truth, values.out, Number(values.worst));
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const lines = [
  `${score.pages} pages: recall >= ${score.atThreshold} on ${percent(score.shareAtThreshold)}, mean recall ${score.meanRecall.toFixed(3)}, mean precision ${score.meanPrecision.toFixed(3)} (over all words ${score.wordPrecision.toFixed(3)})`,
];
const times = [...texts.values()].map((page) => page.ms);
lines.push(
  `page parser: ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2)} ms per page (mean, best of ${values.rounds})`,
);
for (const page of [...truth.pages].sort((a, b) => b.bytes - a.bytes).slice(0, 2))
  lines.push(`  ${page.url} (${(page.bytes / 1e6).toFixed(2)} MB): ${texts.get(page.url)!.ms.toFixed(1)} ms`);
for (const page of score.worst ?? [])
  lines.push(
    `  recall ${page.recall.toFixed(3)} precision ${page.precision.toFixed(3)} ${page.words} words ${page.url}`,
  );
process.stdout.write(`${lines.join('\n')}\n`);
