/**
 * Characters a terminal or a log reader acts on instead of showing: C0 controls (ESC starts ANSI
 * and OSC sequences, CR and LF start a new line), DEL, C1 controls (0x9b is CSI on some terminals),
 * the Unicode line and paragraph separators, and the bidirectional overrides and isolates that
 * reorder what is shown ("Trojan Source").
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw inside a string: everything above but C0, which it escapes. */
const JSON_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text as one inert line: every control character becomes a visible escape (`\n`, `\x1b`,
 * `\u202e`), so page-controlled text can neither drive the terminal nor forge a line.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, (char) => SHORT[char] ?? escapeCode(char));
}

/** JSON text with the control characters JSON.stringify leaves raw written as \u escapes: still the same JSON. */
export function escapeJsonControlCharacters(json: string): string {
  return json.replace(JSON_RAW_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function escapeCode(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
