import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Shell commands of a script or code block: no comments, no blank lines, no trailing comments. */
function commands(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe('CI runs what a newcomer runs', () => {
  it(".ci/run calls exactly the README's two commands", () => {
    const block = /## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('README.md'))?.[1];
    expect(block).toBeDefined();
    const readme = commands(block!);
    expect(readme).toEqual(['npm install && npx crawler demo', 'npm test']);
    const ci = commands(read('.ci/run')).filter((line) => !/^(set |cd )/.test(line));
    expect(ci).toEqual(readme);
  });

  it('npm test sets the machine up first, then checks the format before any test', () => {
    const test = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.test!;
    const steps = test.split('&&').map((step) => step.trim());
    expect(steps[0]).toBe('bash test/prerequisites.sh');
    expect(steps.indexOf('npm run lint')).toBeLessThan(steps.findIndex((step) => step.startsWith('vitest')));
  });
});
