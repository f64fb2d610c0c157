/** How much of a body is read for signs of a challenge: challenge pages are small, and say so early. */
const SCANNED_BYTES = 32 * 1024;
/** A page with a CAPTCHA widget and less visible text than this is a CAPTCHA wall, not a page with a form on it. */
const WALL_TEXT_CHARS = 1500;

/** Markers only bot-defence challenge pages carry (Cloudflare, Imperva, DataDome, PerimeterX, SiteGround, AWS WAF). */
const PLATFORM_MARKERS = [
  '/cdn-cgi/challenge-platform',
  'challenges.cloudflare.com',
  'cf-chl-',
  'cf_chl_',
  '_incapsula_resource',
  'captcha-delivery.com',
  'px-captcha',
  '/.well-known/sgcaptcha',
  'awswaf',
];
const CAPTCHA_WIDGETS = [
  'g-recaptcha',
  'h-captcha',
  'hcaptcha.com/1/api.js',
  'google.com/recaptcha/api',
  'cf-turnstile',
  'frc-captcha',
];
const CHALLENGE_TITLE =
  /^\s*(?:just a moment|attention required|access denied|one more step|checking (?:your|if the site connection is) (?:browser|secure)|are you (?:a )?(?:robot|human)|(?:human|bot|robot) (?:verification|check)|verify(?:ing)? (?:that )?you are (?:a )?human|please verify|security check|captcha|request blocked|pardon our interruption)/i;

/**
 * Whether an answer is a challenge put in front of the page (a JavaScript check, a CAPTCHA) rather
 * than the page, whatever its status (200 included): a challenge platform's markers or header, a
 * title that asks the visitor to prove something, or a CAPTCHA widget on a page with next to no
 * text. A contact form with a reCAPTCHA on a real page has text around it, so it is not one.
 */
export function recognizeChallenge(headers: Record<string, string>, body: Buffer): 'challenge' | 'captcha' | null {
  if ((headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return 'challenge';
  if (body.length === 0) return null;
  const text = body.subarray(0, SCANNED_BYTES).toString('latin1');
  const lower = text.toLowerCase();
  const captcha = CAPTCHA_WIDGETS.some((marker) => lower.includes(marker));
  const title = /<title[^>]*>([^<]*)</i.exec(text)?.[1] ?? '';
  if (PLATFORM_MARKERS.some((marker) => lower.includes(marker)) || CHALLENGE_TITLE.test(decodeEntities(title)))
    return captcha ? 'captcha' : 'challenge';
  if (captcha && visibleText(text).length < WALL_TEXT_CHARS) return 'captcha';
  return null;
}

function visibleText(html: string): string {
  return html
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&hellip;|&#8230;/g, '…')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;/g, ' ');
}
