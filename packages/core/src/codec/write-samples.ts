import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleMessages } from '../testing/sample-messages.js';
import { Codec } from './codec.js';
import { schemasDir } from './schemas-dir.js';

/**
 * Saves one encoded sample per current schema version (never overwriting an existing one), so
 * tests can prove that bytes written by every past version still decode.
 * Run with `npm run schemas:samples` after adding a schema version.
 */
const codec = new Codec();
const dir = join(schemasDir(), 'samples');
mkdirSync(dir, { recursive: true });
for (const name of codec.registry.currentNames()) {
  const version = codec.registry.current(name);
  const file = join(dir, `${name}.v${version.version}.bin`);
  if (existsSync(file)) continue;
  const value = (sampleMessages as Record<string, unknown>)[name];
  if (!value) throw new Error(`no sample value for ${name} in sample-messages.ts`);
  writeFileSync(file, codec.encode(name, value));
  writeFileSync(
    file.replace(/\.bin$/, '.json'),
    `${JSON.stringify(value, (_, v) => (v?.type === 'Buffer' ? { base64: Buffer.from(v.data).toString('base64') } : v), 2)}\n`,
  );
  process.stdout.write(`wrote ${file}\n`);
}
