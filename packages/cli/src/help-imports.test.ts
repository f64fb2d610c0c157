import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/**
 * `crawler --help` must cost a fraction of a second: it prints the command table, so it must not
 * load the commands, the services or their libraries. A module hook records every module the
 * real process resolves.
 */
describe('crawler --help', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(main)) throw new Error('packages/cli/dist/main.js is missing: run npm run build first');
    dir = mkdtempSync(join(tmpdir(), 'help-imports-'));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_MODULES, resolved.url + '\\n');
  return resolved;
}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The modules a `crawler ...argv` process resolved, other than Node's own. */
  function modulesLoadedBy(argv: string[]): string[] {
    const log = join(dir, `loaded-${argv.join('-')}.txt`);
    writeFileSync(log, '');
    const run = spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), main, ...argv], {
      env: { ...process.env, LOADED_MODULES: log },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url && !url.startsWith('node:'));
  }

  it('loads the command table alone, not the commands, services or libraries', () => {
    const loaded = modulesLoadedBy(['--help']).map((url) => fileURLToPath(url));
    expect(loaded.map((path) => path.slice(path.indexOf('/dist/')))).toEqual(['/dist/main.js', '/dist/cli.js']);
  });

  it("loads a command's module for its own --help", () => {
    const loaded = modulesLoadedBy(['run', '--help']);
    expect(loaded.some((url) => url.endsWith('/cli/dist/commands/run.js'))).toBe(true);
    expect(loaded.some((url) => url.includes('/node_modules/'))).toBe(true);
  });
});
