import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configurationDoc } from './config-docs.js';

const target = fileURLToPath(new URL('../../../docs/CONFIGURATION.md', import.meta.url));
writeFileSync(target, configurationDoc());
process.stdout.write(`wrote ${target}\n`);
