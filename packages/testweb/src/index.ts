export { canonicalizeUrl } from './canonical-url.js';
export { InvalidOptionsError, ModelError } from './errors.js';
export type { TestWebOptions } from './options.js';
export { FULL_MIN_HOSTS, FULL_MIN_PAGES } from './options.js';
export { createRobotsPolicy, type RobotsPolicy } from './robots-policy.js';
export { parseRobotsTxt, type RobotsGroup, type RobotsRule, type RobotsTxt } from './robots-txt.js';
export type { LoggedMethod, LoggedRequest, RequestLog } from './server/request-log.js';
export { startTestWeb, type TestWeb } from './test-web.js';
export type { GroundTruth, RenderingTruth } from './truth/ground-truth.js';
export { RENDER_HOST_NAMES, type RenderHostName } from './hosts/render-hosts.js';
export { EDGE_HOST_NAMES, type EdgeHostName } from './hosts/edge-hosts.js';
export { EDGE_CHARSET_PAGES, type EdgeCharsetPage } from './hosts/edge-charset-pages.js';
export { BIG_BODY_BYTES, COMPRESSED_TEXT, GZIP_BOMB_BYTES } from './hosts/edge-body-pages.js';
export { EDGE_COOKIE, EDGE_METADATA_HOST } from './hosts/edge-http-host.js';
export { ROBOTS_ODD_PADDING_BYTES } from './hosts/edge-robots-hosts.js';
export { startNoisyNewsSite, type NoisyNewsSite, type NoisyNewsTruth } from './noisy-news/noisy-news-site.js';
export type { ChangeKind, NoisyNewsOptions } from './noisy-news/noisy-news-model.js';
export {
  CALENDAR_START,
  CHAIN_HOPS,
  HOSTILE_HOST_NAMES,
  HOSTILE_PAGES,
  type HostileOutcome,
  type HostilePage,
} from './hosts/hostile-host.js';
export { MANY_LINKS, ONE_LINE_BYTES } from './hosts/hostile-bodies.js';
export { DEFAULT_DETECTION, type DetectionThresholds, type DetectionVerdict } from './detection/crawler-classifier.js';
export { GUARDED_ATTACHMENTS, GUARDED_HOST_NAMES, type BlockAnswer } from './hosts/guarded-host.js';
export { malformedHrefs, type MalformedHref, type MalformedHrefKind } from './hosts/malformed-hrefs.js';
