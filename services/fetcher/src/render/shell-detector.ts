import { scanHtml } from './html-scan.js';

export interface ShellVerdict {
  shell: boolean;
  /** Why: 'app-root', 'noscript', 'script-heavy'; or why not: 'no-script', 'text'. */
  reason: string;
  textChars: number;
  scriptBytes: number;
}

/** Below this much visible text a page with scripts may be a shell; at or above it, it says enough without them. */
const LITTLE_TEXT = 250;
/** Inline script this many times the visible text: the page is mostly code. */
const SCRIPT_RATIO = 4;
/** Characters looked at: shells are small, and a large page has text long before this. */
const SCAN_CHARS = 512 * 1024;

/** Mount points of the common frameworks (React, Vue, Angular, Next, Nuxt, Svelte), empty or server-marked. */
const APP_ROOT =
  /<(?:div|main|section)\b[^<>]{0,200}\bid=["']?(?:root|app|__next|__nuxt|app-root|svelte)["']?[^<>]{0,200}>\s*<\/(?:div|main|section)>|<app-root\b|\bng-(?:app|version)\b|\bdata-reactroot\b|\bdata-server-rendered\b/i;

/**
 * Whether a plainly fetched page looks like a script shell: little visible text, at least one
 * script, and either a framework's app root, a noscript plea to enable JavaScript, or more inline
 * code than text. A page with no script, or with plenty of text, is never routed to rendering.
 */
export function detectScriptShell(html: string): ShellVerdict {
  const scanned = html.length > SCAN_CHARS ? html.slice(0, SCAN_CHARS) : html;
  const scan = scanHtml(scanned);
  const textChars = scan.text.length;
  const verdict = (shell: boolean, reason: string): ShellVerdict => ({
    shell,
    reason,
    textChars,
    scriptBytes: scan.scriptBytes,
  });
  if (scan.scripts === 0) return verdict(false, 'no-script');
  if (textChars >= LITTLE_TEXT) return verdict(false, 'text');
  if (APP_ROOT.test(scanned)) return verdict(true, 'app-root');
  if (/javascript/i.test(scan.noscript)) return verdict(true, 'noscript');
  if (scan.scriptBytes >= SCRIPT_RATIO * Math.max(textChars, 50)) return verdict(true, 'script-heavy');
  return verdict(false, 'text');
}
