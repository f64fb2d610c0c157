import type { PageBlock } from '@crawler/core';
import { isTemplateBlock, type SiteTemplate } from './site-template.js';

/**
 * The main text without the lines the site template covers. Main-text extraction already dropped
 * most furniture; what is left of the template inside the article container (a dateline with a
 * clock, a view counter, an ad between paragraphs, a "most read" box) goes here. Lines and blocks
 * are both in document order, so each line is matched to the next block with its text: a story
 * title listed in a section's index stays even when the rotating "related" box shows it too.
 */
export function denoiseText(mainText: string, blocks: readonly PageBlock[], template: SiteTemplate | null): string {
  if (!template || mainText === '' || !blocks.some((block) => isTemplateBlock(block, template))) return mainText;
  const positions = new Map<string, number[]>();
  blocks.forEach((block, index) => {
    const list = positions.get(block.text);
    if (list) list.push(index);
    else positions.set(block.text, [index]);
  });
  const kept: string[] = [];
  let cursor = 0;
  for (const line of mainText.split('\n')) {
    const at = firstAtOrAfter(positions.get(line), cursor);
    if (at === undefined) {
      kept.push(line);
      continue;
    }
    cursor = at + 1;
    if (!isTemplateBlock(blocks[at]!, template)) kept.push(line);
  }
  return kept.join('\n');
}

/** The first index in a sorted list that is >= `from`. */
function firstAtOrAfter(sorted: number[] | undefined, from: number): number | undefined {
  if (!sorted) return undefined;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < from) low = mid + 1;
    else high = mid;
  }
  return sorted[low];
}
