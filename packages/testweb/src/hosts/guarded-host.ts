import {
  CrawlerClassifier,
  type DetectionThresholds,
  type DetectionVerdict,
  type RequestKind,
} from '../detection/crawler-classifier.js';
import { staticFile } from '../files/static-file.js';
import { createPng } from '../files/png-file.js';
import { addResource } from '../model/page-kit.js';
import type { GuardedRequest, HostModel, RawAnswer } from '../model/web-model.js';
import { buildUniformHost } from './uniform-host.js';

/** The hosts of the 'guarded' profile, in listening order. */
export const GUARDED_HOST_NAMES = ['guarded'] as const;

/** What a blacklisted network gets: a challenge page with a CAPTCHA served as 200, or a plain 403. */
export type BlockAnswer = 'challenge' | 'forbidden';

/** The page's attachments a browser would fetch: they tell the classifier a visitor is a browser. */
export const GUARDED_ATTACHMENTS = ['/assets/site.css', '/assets/site.js', '/assets/logo.png'];

const CHALLENGE_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Just a moment...</title></head>
<body><h1>Checking that you are not a robot</h1>
<p>Your network sent more requests than a person would. Please prove you are human to continue.</p>
<form method="post" action="/verify"><div class="h-captcha" data-sitekey="test-web"></div><button>Continue</button></form>
</body></html>
`;

export interface GuardedHost {
  host: HostModel;
  classifier: CrawlerClassifier;
}

/**
 * A small site behind a log classifier (detection/crawler-classifier.ts): plain pages that link
 * to each other, robots.txt allowing all, and attachments (a stylesheet, a script, a logo).
 * Every request is counted for its client's /24 before it is served; once a network is judged a
 * crawler, every request from it (robots.txt included) gets the block answer, for good.
 */
export function buildGuardedHost(options: {
  origin: string;
  seed: number;
  pages: number;
  thresholds: DetectionThresholds;
  blockAnswer: BlockAnswer;
  now?: () => number;
  onVerdict?: (verdict: DetectionVerdict) => void;
}): GuardedHost {
  const host = buildUniformHost({
    name: GUARDED_HOST_NAMES[0],
    origin: options.origin,
    seed: options.seed,
    pages: options.pages,
    pageBytes: 3000,
    linksPerPage: 4,
    template: 'plain',
  });
  addResource(host, '/assets/site.css', staticFile('text/css', 'body { font-family: serif; }\n'));
  addResource(host, '/assets/site.js', staticFile('text/javascript', 'document.documentElement.className = "js";\n'));
  addResource(host, '/assets/logo.png', staticFile('image/png', createPng(16, 16, options.seed)));
  const classifier = new CrawlerClassifier(options.thresholds);
  const blocked: RawAnswer =
    options.blockAnswer === 'challenge'
      ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(CHALLENGE_PAGE) }
      : {
          status: 403,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: Buffer.from('<h1>Forbidden</h1>'),
        };
  host.guard = (request: GuardedRequest) => {
    if (classifier.isBlacklisted(request.remote)) return blocked;
    const verdict = classifier.observe(request.remote, kindOf(request.path), options.now?.() ?? request.now);
    if (verdict) options.onVerdict?.(verdict);
    return null;
  };
  return { host, classifier };
}

/** How a site's log tells requests apart: robots.txt is neither a page view nor an attachment. */
function kindOf(path: string): RequestKind {
  if (path === '/robots.txt') return 'other';
  return /\.(?:css|js|png|jpe?g|gif|svg|ico|woff2?)(?:\?|$)/i.test(path) ? 'attachment' : 'page';
}
