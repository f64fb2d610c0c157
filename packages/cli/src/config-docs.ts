import { settingGroups as groups } from './setting-groups.js';

/** docs/CONFIGURATION.md, generated from the settings schemas so it cannot fall behind them. */
export function configurationDoc(): string {
  const sections = groups.map(([, name, spec]) => {
    const rows = Object.entries(spec).map(([key, item]) => {
      const fallback = item.schema.safeParse(undefined);
      const shown = item.secret
        ? '(secret)'
        : fallback.success && fallback.data !== undefined
          ? `\`${JSON.stringify(fallback.data)}\``
          : '(none)';
      return `| \`${item.env}\` | \`${key}\` | ${shown} | ${item.doc.replace(/\|/g, '\\|')} |`;
    });
    return [`## ${name}`, '', '| variable | file key | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
  });
  return [
    '# Configuration',
    '',
    'Generated from the settings schemas by `npm run docs:config`; a test fails when this file falls behind them.',
    '',
    'Each service reads its settings once at start, in this order (later wins): default, the JSON file named by',
    '`CRAWLER_CONFIG` (keys as in the "file key" column, at the top level or under the service name), the',
    'environment variable, and command-line flags of `crawler run`. A bad value stops the service with a message',
    'naming the variable, the value and the rule; a file key that no setting below has is refused, naming it (and',
    'the key it nearest resembles). Settings marked secret are never printed. A standalone service',
    'checks all of its settings before it listens or connects; `crawler-<service> --help` (or',
    '`node services/<service>/dist/main.js --help`) lists the groups it reads.',
    '',
    '```json',
    '{ "fetcher": { "concurrency": 100, "minDelayMs": 2000 }, "scheduler": { "leaseMs": 300000 } }',
    '```',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

/**
 * packages/core/src/config/config-file-keys.ts: every key a CRAWLER_CONFIG file may hold, so that
 * any service, whichever groups it reads itself, refuses a key that no group knows.
 */
export function configFileKeysSource(): string {
  const sections = groups.map(([section, , spec]) => {
    const keys = Object.keys(spec).map((key) => `'${key}'`);
    const oneLine = `  ${section}: [${keys.join(', ')}],`;
    // The layout Prettier gives it, so the generated file passes npm run lint.
    return oneLine.length <= 120
      ? oneLine
      : [`  ${section}: [`, ...keys.map((key) => `    ${key},`), '  ],'].join('\n');
  });
  return [
    '/** Generated from the settings schemas by `npm run docs:config`; a test fails when it falls behind them. */',
    'export const configFileKeys: Readonly<Record<string, readonly string[]>> = {',
    ...sections,
    '};',
    '',
  ].join('\n');
}
