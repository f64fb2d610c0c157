import type { DuplicateDeclarations, HostModel } from '../model/web-model.js';

/** The hosts of the 'full' profile, in listening order. */
export const FULL_HOST_NAMES = ['news', 'blog', 'shop', 'legacy', 'mirror', 'slow'] as const;
export type FullHostName = (typeof FULL_HOST_NAMES)[number];

export interface FullBuildContext {
  seed: number;
  pagesPerHost: number;
  origins: Record<FullHostName, string>;
}

/** A built host plus the duplicate relations its builder knows about. */
export interface HostBuild {
  host: HostModel;
  declarations: Partial<DuplicateDeclarations>;
}
