import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its errors turned into one-line usage errors. */
export function parseFlags<O extends Options>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals = false,
): ReturnType<
  typeof parseArgs<{
    args: string[];
    options: O & { help: { type: 'boolean'; short: 'h' } };
    strict: true;
    allowPositionals: boolean;
  }>
> {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    const message = (error as Error).message
      .replace(/\. To specify a positional argument.*$/s, '')
      .replace(/^Unknown option/, 'unknown option');
    throw new UsageError(`crawler ${command}: ${message} (see crawler ${command} --help)`);
  }
}

export function intFlag(command: string, name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new UsageError(`crawler ${command}: --${name} must be a whole number >= ${min}, got "${value}"`);
  return parsed;
}

/** "90", "90s", "5m", "2h", "3d" as milliseconds. */
export function durationFlag(command: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = value.trim().match(/^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/);
  if (!match)
    throw new UsageError(`crawler ${command}: --${name} must be a duration like 90s, 5m, 2h or 3d, got "${value}"`);
  const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const factor = units[(match[2] ?? 's') as keyof typeof units];
  return Math.round(Number(match[1]) * factor);
}
