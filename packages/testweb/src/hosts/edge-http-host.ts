import { addResource, createHost } from '../model/page-kit.js';
import type { HostModel, RawRequest } from '../model/web-model.js';
import { addEdgeBodyPages } from './edge-body-pages.js';
import { addEdgeCharsetPages } from './edge-charset-pages.js';
import { fixed, htmlAnswer, redirectAnswer } from './edge-answers.js';

/** Host names that only a stubbed resolver knows; the http host redirects to them. */
export const EDGE_METADATA_HOST = 'metadata.edge.test';

/** The cookie /cookies/start sets and /cookies/check requires. */
export const EDGE_COOKIE = 'edge_session=opened';

function hasCookie(request: RawRequest): boolean {
  const header = request.headers.cookie;
  const cookies = (Array.isArray(header) ? header.join('; ') : (header ?? '')).split(/;\s*/);
  return cookies.includes(EDGE_COOKIE);
}

/**
 * http: HTTP-level edge cases, one per path. Statuses the full profile lacks (401, 403, 418, a
 * redirect without Location), Retry-After as an HTTP date, inline redirect chains and loops, a
 * redirect to a cloud-metadata host name, a cookie gate, an answer that takes 300 ms, bodies and charsets (see the helpers).
 */
export function buildEdgeHttpHost(origin: string, otherOrigin: string): HostModel {
  const host = createHost('http', origin, { noise: false, validators: false });
  addResource(host, '/', fixed(htmlAnswer('Edge cases', 'HTTP edge cases live under this host.')));

  addResource(host, '/status/401', fixed({ status: 401, headers: { 'www-authenticate': 'Basic realm="edge"' } }));
  addResource(host, '/status/403', fixed({ status: 403 }));
  addResource(host, '/status/410', fixed({ status: 410 }));
  addResource(host, '/status/418', fixed({ status: 418 }));
  addResource(host, '/status/500', fixed({ status: 500 }));
  addResource(host, '/status/302-without-location', fixed({ status: 302 }));
  addResource(host, '/busy/seconds', fixed({ status: 429, headers: { 'retry-after': '2' } }));
  addResource(host, '/busy/date', {
    kind: 'raw',
    answer: ({ now }) => ({ status: 503, headers: { 'retry-after': new Date(now + 3000).toUTCString() } }),
  });
  addResource(host, '/busy/no-retry-after', fixed({ status: 503 }));

  addResource(host, '/slow-answer', fixed({ ...htmlAnswer('Slow', 'This answer takes 300 ms.'), delayMs: 300 }));

  addResource(host, '/chain/1', fixed(redirectAnswer(301, '/chain/2')));
  addResource(host, '/chain/2', fixed(redirectAnswer(302, `${origin}/chain/3#ignored`)));
  addResource(host, '/chain/3', fixed(redirectAnswer(307, '/chain/end')));
  addResource(host, '/chain/end', fixed(htmlAnswer('End of chain', 'Three hops to get here.')));
  addResource(host, '/loop/a', fixed(redirectAnswer(302, '/loop/b')));
  addResource(host, '/loop/b', fixed(redirectAnswer(308, '/loop/a')));
  addResource(host, '/cross-host', fixed(redirectAnswer(301, `${otherOrigin}/`)));
  addResource(host, '/to-metadata', fixed(redirectAnswer(302, `http://${EDGE_METADATA_HOST}/latest/meta-data/`)));

  addResource(
    host,
    '/cookies/start',
    fixed({ status: 302, headers: { location: '/cookies/check', 'set-cookie': `${EDGE_COOKIE}; Path=/; HttpOnly` } }),
  );
  addResource(host, '/cookies/check', {
    kind: 'raw',
    answer: (request) => (hasCookie(request) ? htmlAnswer('Welcome back', 'The cookie came back.') : { status: 403 }),
  });

  addEdgeBodyPages(host);
  addEdgeCharsetPages(host);
  return host;
}
