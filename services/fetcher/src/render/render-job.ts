import { readFileSync } from 'node:fs';
import { ConfigError } from '@crawler/core';
import { z } from 'zod';
import { renderRulesSchema, type RenderRule } from './render-rules.js';

/**
 * The crawl job's "rendering" section. The fetcher alone reads it (other services ignore the key):
 * `enabled` turns rendering on for the job, `rules` come before those of FETCHER_RENDER_RULES_FILE.
 */
const renderJobSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    rules: renderRulesSchema.default([]),
  })
  .prefault({});

export interface RenderJob {
  enabled: boolean;
  rules: RenderRule[];
}

export function loadRenderJob(jobFile: string | undefined): RenderJob {
  if (!jobFile) return { enabled: false, rules: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(jobFile, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`crawl job file ${jobFile} (CRAWL_JOB_FILE) cannot be read: ${(cause as Error).message}`, {
      cause,
    });
  }
  const parsed = renderJobSchema.safeParse((raw as { rendering?: unknown } | null)?.rendering);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${jobFile}: rendering.${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
