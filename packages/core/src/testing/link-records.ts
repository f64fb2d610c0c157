import { createLinkRecord } from '../link-record.js';
import type { LinkRecord } from '../ports/linkbase.js';

/** A queued link record with sensible defaults, for tests. */
export function makeLinkRecord(url: string, overrides: Partial<LinkRecord> = {}): LinkRecord {
  return createLinkRecord(url, overrides);
}
