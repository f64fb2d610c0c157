import { readFileSync } from 'node:fs';
import { ConfigError, regexSource } from '@crawler/core';
import { z } from 'zod';

/**
 * One rule of the per-site rule base: the first rule whose pattern matches a URL decides.
 * always: render it; learn: render it until the site's learned decision says rendering changes
 * nothing there; never: do not render it, even if it looks like a shell.
 */
export const renderRuleSchema = z.strictObject({
  pattern: regexSource,
  render: z.enum(['always', 'learn', 'never']).default('always'),
  /** Scrolls to the end of the page, each followed by a wait for its requests (infinite-scroll lists). */
  scrolls: z.number().int().min(0).max(50).default(0),
  /** CSS selector of a "load more" button, clicked while it is there, at most `clicks` times. */
  click: z.string().min(1).optional(),
  clicks: z.number().int().min(1).max(50).default(5),
});

export type RenderRule = z.output<typeof renderRuleSchema>;

export const renderRulesSchema = z.array(renderRuleSchema);

/** The rule base, compiled once. */
export class RenderRules {
  private readonly compiled: { regex: RegExp; rule: RenderRule }[];

  constructor(readonly rules: readonly RenderRule[]) {
    this.compiled = rules.map((rule) => ({ regex: new RegExp(rule.pattern), rule }));
  }

  /** The first rule matching the URL, or null. */
  match(url: string): RenderRule | null {
    for (const { regex, rule } of this.compiled) if (regex.test(url)) return rule;
    return null;
  }
}

/** Reads a rule file: a JSON array of rules, or an object with a `rules` array. */
export function loadRenderRulesFile(path: string): RenderRule[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(
      `render rules file ${path} (FETCHER_RENDER_RULES_FILE) cannot be read: ${(cause as Error).message}`,
      { cause },
    );
  }
  if (Array.isArray(raw)) return parseRenderRules(raw, path);
  const unknown = typeof raw === 'object' && raw !== null ? Object.keys(raw).find((key) => key !== 'rules') : '(root)';
  if (unknown !== undefined)
    throw new ConfigError(
      `${path}: a render rules file is a list of rules or {"rules": [...]}; "${unknown}" is not known`,
    );
  return parseRenderRules((raw as { rules?: unknown }).rules, path);
}

export function parseRenderRules(value: unknown, source: string): RenderRule[] {
  const parsed = renderRulesSchema.safeParse(value ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${source}: rules.${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
