import { SKIPPED_TAGS } from '../content/content-node.js';
import type { HtmlCollector } from '@crawler/core/html';
import type { LinkList } from './raw-link.js';
import { findTextUrls } from './text-links.js';

/** A text run longer than this is searched in pieces (a URL cut at the seam is lost, memory stays bounded). */
const MAX_RUN_CHARS = 64 * 1024;

/**
 * URLs written as plain text in visible text outside links. Text events are joined per run
 * between tags first, since the parser splits text at entities (`?a=1&amp;b=2`).
 */
export function createTextLinkCollector(list: LinkList): HtmlCollector & { flush(): void } {
  let anchorDepth = 0;
  let skipDepth = 0;
  let run: string[] = [];
  let runChars = 0;

  const flush = () => {
    if (run.length === 0) return;
    const text = run.join('');
    run = [];
    runChars = 0;
    for (const url of findTextUrls(text, 1000))
      if (!list.add({ href: url, anchor: null, rel: null, source: 'text' })) return;
  };

  return {
    open(name) {
      flush();
      if (SKIPPED_TAGS.has(name)) skipDepth++;
      else if (name === 'a') anchorDepth++;
    },
    text(data) {
      if (skipDepth > 0 || anchorDepth > 0) return;
      run.push(data);
      runChars += data.length;
      if (runChars > MAX_RUN_CHARS) flush();
    },
    close(name) {
      flush();
      if (SKIPPED_TAGS.has(name)) skipDepth = Math.max(0, skipDepth - 1);
      else if (name === 'a') anchorDepth = Math.max(0, anchorDepth - 1);
    },
    flush,
  };
}
