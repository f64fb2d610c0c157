/** The WHATWG encoding name of a label ("latin1" -> "windows-1252", "x-gbk" -> "gbk"), or null if unknown. */
export function normalizeCharsetLabel(label: string): string | null {
  const trimmed = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  // The Encoding Standard maps x-user-defined to its own decoder, which Node lacks; HTML reads it as windows-1252.
  if (trimmed === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return null;
  }
}
