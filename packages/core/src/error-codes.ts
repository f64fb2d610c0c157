/**
 * Every error code the crawler writes: the `code` of the errors it throws, a status's `errorCode`
 * and a dead letter's, each with whether another attempt may succeed. CrawlerError takes its
 * `retriable` flag from here, so retriability is decided once per code, and code names a code as
 * `ErrorCode.X`: a test finds these strings written anywhere else. Codes of other libraries
 * (Node's errno and ERR_*, undici's UND_ERR_*, Kafka's) are classified where they arrive; the
 * fetcher passes a network error's own code on in its status.
 */
const CODES = {
  // What any stage may meet.
  UNEXPECTED: { retriable: true, doc: 'An error the crawler did not name; tried again like a passing one.' },
  CRAWLER_CONFIG_INVALID: { retriable: false, doc: 'A setting is missing or invalid.' },
  CODEC_BAD_HEADER: { retriable: false, doc: 'Bytes on a topic that are not an Avro message of the crawler.' },
  CODEC_UNKNOWN_SCHEMA: { retriable: false, doc: 'A message of a schema version schemas/ does not know.' },
  CODEC_CORRUPT: { retriable: false, doc: 'A message whose body does not decode with its schema.' },
  CODEC_WRONG_SCHEMA: { retriable: false, doc: 'A message of another schema than the topic carries.' },
  CODEC_INVALID_VALUE: { retriable: false, doc: 'A value that does not fit its schema.' },
  MESSAGE_TOO_LARGE: { retriable: false, doc: "A result larger than its topic's limit." },
  INPUT_TOO_LARGE: { retriable: false, doc: "A consumed record larger than its topic's limit." },
  STAGE_UNDECLARED_OUTPUT: { retriable: false, doc: 'A stage emitted to a topic it did not declare.' },
  METRICS_READ_TIMEOUT: { retriable: true, doc: 'A read for /metrics took too long.' },
  WORKER_CRASHED: {
    retriable: true,
    doc: 'A worker thread died (out of memory, a native crash, an exit) while it held the task.',
  },
  WORKER_POOL_CLOSED: { retriable: true, doc: 'The worker pool was closed before the task finished.' },
  // The bus and the stores.
  BACKEND_UNAVAILABLE: { retriable: true, doc: 'A store or the bus did not answer, or failed for now.' },
  BACKEND_REFUSED: {
    retriable: false,
    doc: 'A store refused the request as it is: a bad request, a closed or read-only store, a corrupt file.',
  },
  BUS_CLOSED: { retriable: true, doc: 'The bus was closed under a send or a read.' },
  BUS_UNKNOWN_TOPIC: { retriable: false, doc: 'A topic that is not on the bus.' },
  BUS_CONSUMER_STARTED: { retriable: false, doc: 'A consumer started twice.' },
  SCHEMA_REGISTRY_UNAVAILABLE: { retriable: true, doc: 'The schema registry did not answer, or failed for now.' },
  SCHEMA_REGISTRY_REFUSED: { retriable: false, doc: 'The schema registry refused a request.' },
  SCHEMA_INCOMPATIBLE: { retriable: false, doc: 'The schema registry refused a schema as incompatible.' },
  FINGERPRINT_INVALID_ARGUMENT: { retriable: false, doc: 'A fingerprint store call with an unusable argument.' },
  HBASE_CELL_TOO_LARGE: { retriable: false, doc: 'A page larger than an HBase cell may be.' },
  HBASE_CELL_ENCODING: { retriable: false, doc: 'An HBase cell in an encoding the page store does not know.' },
  // The fetcher: its errors, and the codes of the statuses it writes.
  FETCHER_STOPPING: { retriable: true, doc: 'The fetcher stopped; the URL is handed back uncommitted.' },
  FETCHER_QUEUE_FULL: { retriable: true, doc: "The host's politeness queue was full; the URL was not fetched." },
  SITE_BUDGET_SPENT: {
    retriable: true,
    doc: "The site's request budget (FETCHER_SITE_*, the job's overrides) is spent for now; the URL was not fetched.",
  },
  SITE_BLOCKED: { retriable: true, doc: 'The site blocks the crawler: its URLs are not asked for until its probe.' },
  SITE_CHALLENGE: { retriable: true, doc: 'The site answered with a challenge page: it blocks the crawler.' },
  SITE_CAPTCHA: { retriable: true, doc: 'The site answered with a CAPTCHA wall: it blocks the crawler.' },
  SITE_DENIALS: { retriable: true, doc: "A burst of 403/429 among the site's last answers: it blocks the crawler." },
  SITE_COLLAPSE: {
    retriable: true,
    doc: 'Different URLs of the site answered with one tiny page: it blocks the crawler.',
  },
  FETCH_DEADLINE: { retriable: true, doc: 'No complete answer within FETCHER_TOTAL_TIMEOUT_MS.' },
  BLOCKED_ADDRESS: { retriable: false, doc: 'The address policy refuses the address a name resolves to.' },
  ERR_INVALID_URL: { retriable: false, doc: "Not a URL (Node's code for it)." },
  HTTP_PARSE_ERROR: { retriable: false, doc: 'An answer that is not HTTP (undici gives it no code).' },
  ROBOTS_UNAVAILABLE: { retriable: true, doc: "The site's robots.txt could not be read; it is tried again later." },
  ROBOTS_DISALLOWED: { retriable: false, doc: "The site's robots.txt disallows the URL." },
  REDIRECT_INVALID: { retriable: false, doc: 'A redirect to an unusable location.' },
  REDIRECT_LOOP: { retriable: false, doc: 'A redirect back to a URL of its own chain.' },
  REDIRECT_WITHOUT_LOCATION: { retriable: false, doc: 'A redirect status without a Location.' },
  CONTENT_ENCODING_UNSUPPORTED: { retriable: false, doc: 'A Content-Encoding not asked for that cannot be decoded.' },
  CONTENT_TYPE_REFUSED: { retriable: false, doc: 'A content type not in FETCHER_CONTENT_TYPES.' },
  BODY_TOO_LARGE: { retriable: false, doc: 'A body over FETCHER_MAX_BODY_BYTES that is useless cut.' },
  RENDER_LAUNCH_FAILED: { retriable: true, doc: 'Chromium could not be started.' },
  RENDER_BROWSER_CRASHED: { retriable: true, doc: 'The browser went away while the page rendered.' },
  RENDER_TIMEOUT: { retriable: true, doc: 'No DOM could be read from the page within its time limit.' },
  RENDER_QUEUE_FULL: { retriable: true, doc: 'Every browser page was busy and too many pages waited.' },
  RENDER_FAILED: { retriable: false, doc: 'Anything else the browser refused to do.' },
  // The scheduler.
  REDIRECT_LIMIT: { retriable: false, doc: 'A redirect chain longer than SCHEDULER_MAX_REDIRECT_HOPS.' },
  LEASE_EXPIRED: { retriable: false, doc: 'Leases of the URL ran out SCHEDULER_MAX_LEASE_EXPIRIES times.' },
  SCHEDULER_PARTITION_FENCED: {
    retriable: true,
    doc: "A scheduler's hold on a crawl.status partition ended (another claimed it): the partition's next owner handles the status.",
  },
  ADMIN_UNAUTHORIZED: { retriable: false, doc: 'An admin request without the right token.' },
  ADMIN_BAD_REQUEST: { retriable: false, doc: 'An admin request the API cannot read.' },
  ADMIN_NOT_FOUND: { retriable: false, doc: 'An admin request for something that is not there.' },
  ADMIN_METHOD_NOT_ALLOWED: { retriable: false, doc: 'An admin request with a method its path does not take.' },
  ADMIN_CONFLICT: { retriable: false, doc: 'An admin request that conflicts with the job file.' },
  ADMIN_BODY_TOO_LARGE: { retriable: false, doc: 'An admin request body over the limit.' },
  // Link extraction and dedup.
  LINKEXTRACT_RULES_INVALID: { retriable: false, doc: 'An extraction rule file that is not valid.' },
  DEDUP_JUDGE_RULES_INVALID: { retriable: false, doc: "A judge's rule file that is not valid." },
  DEDUP_JUDGE_UNAVAILABLE: { retriable: true, doc: 'The HTTP judge did not answer, or failed for now.' },
  DEDUP_JUDGE_REFUSED: { retriable: false, doc: 'The HTTP judge refused the page or answered without a verdict.' },
  // The command line.
  CLI_USAGE: { retriable: false, doc: 'A bad command line.' },
  CLI_ADMIN_FAILED: { retriable: false, doc: "The scheduler's admin API answered with an error." },
  CLI_STACK_UNREACHABLE: { retriable: true, doc: 'A system the command needs did not answer.' },
  CLI_NO_CRAWL_TOPICS: { retriable: false, doc: "The crawl's topics are not on the cluster." },
  CRAWL_STATE_UNAVAILABLE: { retriable: false, doc: 'The link base did not answer at the end of a crawl.' },
  CRAWL_WRITE_FAILED: { retriable: false, doc: 'The disk refused what the crawl wrote.' },
  // The reliability tests' control of the local stack.
  RELIABILITY_STACK_MISMATCH: { retriable: false, doc: 'The stack the tests use is not the one they would stop.' },
  RELIABILITY_STACK_CONTROL: { retriable: false, doc: 'Stopping or starting a part of the local stack failed.' },
} as const satisfies Record<string, { retriable: boolean; doc: string }>;

export type ErrorCode = keyof typeof CODES;

/** Each code by name: `ErrorCode.BACKEND_UNAVAILABLE` is 'BACKEND_UNAVAILABLE'. */
export const ErrorCode = Object.fromEntries(Object.keys(CODES).map((code) => [code, code])) as {
  readonly [C in ErrorCode]: C;
};

/** Every code with its flag and meaning, for docs and tests. */
export const errorCodes: Readonly<Record<ErrorCode, { retriable: boolean; doc: string }>> = CODES;
