import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command's flags as parseArgs reads them (-h/--help is added to every command). */
export type FlagSpec = Options;

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
    // Node's messages run over several lines with advice for the programmer: the first sentence is the point.
    const message = (error as Error).message
      .split('\n')[0]!
      .replace(/\. To specify a positional argument.*$/s, '')
      .replace(/^Unknown option/, 'unknown option')
      .replace(
        /^Option '(--[^' ]+)' argument is ambiguous\.$/,
        `Option '$1' argument starts with "-": write $1=VALUE for such a value`,
      );
    throw new UsageError(`crawler ${command}: ${message} (see crawler ${command} --help)`);
  }
}

export function intFlag(command: string, name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  // Digits only: Number() would read "", " " and "0x10" as numbers.
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min)
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

/** A file the command will write: refused now if it names a folder or a folder that does not exist, not after the work. */
export function checkOutputFile(command: string, name: string, path: string): void {
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`crawler ${command}: --${name} ${path}: the folder ${folder} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`crawler ${command}: --${name} ${path} is a folder, not a file`);
}
