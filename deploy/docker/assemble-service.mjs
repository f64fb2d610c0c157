// Copies what one service needs at run time into a folder: the compiled workspaces it depends on
// (production dependencies, transitively), their npm production dependencies, and schemas/.
// Run from the repository root after the build: node deploy/docker/assemble-service.mjs <service> <out>
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';

const [service, out] = process.argv.slice(2);
if (!service || !out || !existsSync(join('services', service, 'package.json'))) {
  process.stderr.write(
    'usage: node deploy/docker/assemble-service.mjs <scheduler|fetcher|linkextract|dedup> <out-dir>\n',
  );
  process.exit(2);
}

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const workspaceDirs = new Map(manifest('.').workspaces.map((dir) => [manifest(dir).name, dir]));

const closure = new Set();
const pending = [join('services', service)];
while (pending.length > 0) {
  const dir = pending.pop();
  if (closure.has(dir)) continue;
  closure.add(dir);
  for (const name of Object.keys(manifest(dir).dependencies ?? {}))
    if (workspaceDirs.has(name)) pending.push(workspaceDirs.get(name));
}

mkdirSync(out, { recursive: true });
// npm reads the whole workspace graph from the lock file, so every manifest goes in; only the closure gets code.
for (const file of ['package.json', 'package-lock.json', '.npmrc']) cpSync(file, join(out, file));
for (const dir of workspaceDirs.values()) cpSync(join(dir, 'package.json'), join(out, dir, 'package.json'));
execFileSync(
  'npm',
  [
    'install',
    '--omit=dev',
    '--ignore-scripts',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--workspace',
    join('services', service),
  ],
  { cwd: out, stdio: 'inherit' },
);

for (const [name, dir] of workspaceDirs) {
  if (closure.has(dir)) {
    cpSync(join(dir, 'dist'), join(out, dir, 'dist'), { recursive: true });
  } else {
    // npm also links workspaces that are only dev dependencies; they have no code here.
    rmSync(join(out, dir), { recursive: true, force: true });
    rmSync(join(out, 'node_modules', name), { force: true });
  }
}
// Read at run time relative to packages/core/dist (CRAWLER_SCHEMAS_DIR overrides); the samples are test fixtures.
cpSync('schemas', join(out, 'schemas'), { recursive: true, filter: (path) => !path.split(sep).includes('samples') });
for (const file of ['package-lock.json', '.npmrc']) rmSync(join(out, file));

const left = readdirSync(join(out, 'node_modules', '@crawler'));
process.stdout.write(`${service}: workspaces ${[...closure].join(', ')}; @crawler links ${left.join(', ')}\n`);
