// ESLint: the recommended JavaScript and TypeScript rules (not type-aware: they run on two cores in
// seconds), and the import boundaries between packages. Prettier owns formatting.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Library packages: reusable by any service, so they never import a service or an app. */
const LIBRARY_PACKAGES = ['core', 'embedded', 'testweb', 'kafka', 'elasticsearch', 'redis', 'hbase', 'adapters'];
const SERVICES = ['scheduler', 'fetcher', 'linkextract', 'dedup'];
const serviceImports = SERVICES.map((name) => `@crawler/${name}`);
const adapterImports = ['embedded', 'kafka', 'elasticsearch', 'redis', 'hbase', 'testweb'].map(
  (name) => `@crawler/${name}`,
);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/.venv/**', '.stack/**', 'crawl-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A crawler matches control characters on purpose: bytes of hostile pages, ASCII ranges.
      'no-control-regex': 'off',
    },
  },
  {
    // Services reach other systems only through core's ports and the adapters package's composition.
    files: SERVICES.map((name) => `services/${name}/src/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...serviceImports, ...adapterImports, '@crawler/cli'],
              message: 'A service imports only @crawler/core and @crawler/adapters.',
            },
          ],
        },
      ],
    },
  },
  {
    files: LIBRARY_PACKAGES.map((name) => `packages/${name}/src/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...serviceImports, '@crawler/cli', '@crawler/bench'],
              message: 'A library package never imports a service or an app.',
            },
          ],
        },
      ],
    },
  },
);
