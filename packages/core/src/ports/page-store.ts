import type { StoredPage } from '../messages.js';

/**
 * Versioned page storage: row key = SURT of the URL, version = fetch time. Writing the same
 * (url, fetchedAt) twice stores it once, so redelivered messages are harmless.
 */
export interface PageStore {
  put(pages: StoredPage[]): Promise<void>;
  /** Versions of one URL, newest first; `versions` caps how many. */
  get(url: string, options?: { versions?: number }): Promise<StoredPage[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
