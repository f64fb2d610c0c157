export { canonicalizeUrl } from './canonical-url.js';
export { InvalidOptionsError, ModelError } from './errors.js';
export type { TestWebOptions } from './options.js';
export { createRobotsPolicy, type RobotsPolicy } from './robots-policy.js';
export { parseRobotsTxt, type RobotsGroup, type RobotsRule, type RobotsTxt } from './robots-txt.js';
export type { LoggedMethod, RequestLog } from './server/request-log.js';
export { startTestWeb, type TestWeb } from './test-web.js';
export type { GroundTruth } from './truth/ground-truth.js';
