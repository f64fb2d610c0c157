import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFileKeysSource, configurationDoc } from './config-docs.js';

for (const [path, text] of [
  ['../../../docs/CONFIGURATION.md', configurationDoc()],
  ['../../core/src/config/config-file-keys.ts', configFileKeysSource()],
] as const) {
  const target = fileURLToPath(new URL(path, import.meta.url));
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
