const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** "90s", "20m", "1.5h" or plain seconds ("600") as milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$/.exec(text);
  if (!match) throw new Error(`a duration looks like 90s, 20m or 1h, got "${text}"`);
  return Math.round(Number(match[1]) * UNITS[match[2] || 's']!);
}
