import type { PeerSpec } from '../bench-results.js';

const ourRobots =
  'the fetcher reads robots.txt once per host (RFC 9309, its own parser; the record is shared through the fingerprint store) and checks every URL before requesting it';

/** Every crawler the bench compares, in table order, with how it runs and exactly how it obeys robots.txt. */
export const PEER_SPECS: PeerSpec[] = [
  {
    id: 'raw',
    label: 'raw undici GETs (the limit)',
    how: 'plain undici GETs of every truth URL, bodies read and dropped, keep-alive',
    robots: 'none: it is the fetch limit, not a crawler',
  },
  {
    id: 'floor',
    label: 'bare tools doing the core work (the floor)',
    how: "one loop, no framework: undici GET, one htmlparser2 pass for links, title and text, WHATWG URL resolution into a Set of seen URLs, a SHA-256 digest per body into a Set, the crawler's own SimHash fingerprint of the text and gzip of each new body (level 6, as the WARC store); no link base, messages, page files, retries or politeness state. What no crawler producing our outputs can undercut on this machine",
    robots:
      'robots-parser (the package Crawlee uses): robots.txt fetched once per origin before its first page, every URL checked',
  },
  {
    id: 'embedded',
    label: 'this crawler, embedded',
    how: 'the whole loop in one process: in-process bus with every message Avro-encoded, file link base, WARC files',
    robots: ourRobots,
  },
  {
    id: 'stack',
    label: 'this crawler, one process on the stack',
    how: 'the same loop in one process on Kafka, Elasticsearch, Redis and HBase (`crawler run --stack`)',
    robots: `${ourRobots} (Redis)`,
  },
  {
    id: 'services',
    label: 'this crawler, 4 processes on the stack',
    how: 'scheduler, fetcher, linkextract and dedup each its own process, as test/e2e runs them',
    robots: `${ourRobots} (Redis)`,
  },
  {
    id: 'crawlee',
    label: 'Crawlee CheerioCrawler',
    how: 'enqueueLinks() on every page, in-memory storage (persistStorage: false), concurrency pinned (min = max)',
    robots:
      'its own `respectRobotsTxtFile: true`: robots.txt fetched once per origin, every request checked before it is made',
  },
  {
    id: 'scrapy',
    label: 'Scrapy',
    how: 'a Spider following every LinkExtractor link, in-memory scheduler, CONCURRENT_REQUESTS and _PER_DOMAIN = concurrency, no delay, no AutoThrottle',
    robots:
      '`ROBOTSTXT_OBEY = True`: RobotsTxtMiddleware with the default Protego parser, robots.txt fetched once per origin, disallowed requests dropped',
  },
  {
    id: 'wget',
    label: 'GNU Wget',
    how: "Debian's wget mirroring the sites: `--recursive --level=inf --no-parent --no-verbose`, a `--reject-regex` for style sheets, scripts, images, fonts and `<link>`ed XML, no page requisites, one request at a time (wget has no concurrency), every file kept on disk",
    robots:
      '`-e robots=on` (its default): robots.txt fetched once per host when wget first follows a link there (the seed page itself comes before it), disallowed links not followed',
  },
];
