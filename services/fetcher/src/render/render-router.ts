import type { RenderRule, RenderRules } from './render-rules.js';
import { detectScriptShell } from './shell-detector.js';
import type { SiteLearning } from './site-learning.js';

export type RenderRoute =
  | { render: false; reason: 'not_html' | 'rule_never' | 'plain' | 'learned_skip' }
  | { render: true; reason: 'rule' | 'shell'; rule: RenderRule | null; learn: boolean };

export interface RenderRouterOptions {
  rules: RenderRules;
  /** Render pages that look like script shells without a rule. */
  detectShells: boolean;
  /** Per-site learning; null renders every routed page. */
  learning: SiteLearning | null;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Decides whether a plainly fetched page is rendered. A matching site rule decides first (always,
 * never, or learn); without one, a page is rendered only if it looks like a script shell. Pages
 * routed by learn rules and shell detection stop being rendered once their site's learned
 * decision says rendering changes nothing there. Plain pages never reach the browser.
 */
export async function routePage(
  options: RenderRouterOptions,
  page: { url: string; host: string; contentType: string; html: () => string },
): Promise<RenderRoute> {
  if (!HTML_TYPES.has(page.contentType)) return { render: false, reason: 'not_html' };
  const rule = options.rules.match(page.url);
  if (rule?.render === 'never') return { render: false, reason: 'rule_never' };
  if (rule?.render === 'always') return { render: true, reason: 'rule', rule, learn: false };
  if (!rule && !(options.detectShells && detectScriptShell(page.html()).shell))
    return { render: false, reason: 'plain' };
  const decision = options.learning ? await options.learning.decision(page.host) : 'render';
  if (decision === 'skip') return { render: false, reason: 'learned_skip' };
  // Once a site's decision is "render", its pages no longer count as samples.
  return { render: true, reason: rule ? 'rule' : 'shell', rule, learn: decision === 'learning' };
}
