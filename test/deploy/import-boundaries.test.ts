import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../../', import.meta.url));

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd }).lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

/** The boundaries eslint.config.js keeps: services reach the world through core and adapters only. */
describe('import boundaries', () => {
  it('a service may import core and the adapters package', async () => {
    const code =
      "import { Topics } from '@crawler/core';\nimport { createBus } from '@crawler/adapters';\nexport { Topics, createBus };\n";
    expect(await problems('services/fetcher/src/probe.ts', code)).toEqual([]);
  });

  it('a service may not import an adapter or another service', async () => {
    for (const name of ['kafka', 'embedded', 'dedup']) {
      const code = `import * as other from '@crawler/${name}';\nexport { other };\n`;
      expect(await problems('services/fetcher/src/probe.ts', code)).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*imports only @crawler\/core and @crawler\/adapters/),
      ]);
    }
  });

  it('a library package may not import a service', async () => {
    const code = "import * as fetcher from '@crawler/fetcher';\nexport { fetcher };\n";
    expect(await problems('packages/embedded/src/probe.ts', code)).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*never imports a service/),
    ]);
  });
});
