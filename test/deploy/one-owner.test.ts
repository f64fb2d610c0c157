import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodes } from '@crawler/core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every shared concern has one owner file (docs/ARCHITECTURE.md, "Who owns what"). These checks
 * read the sources and fail when a concern is written again somewhere else: each names the owner
 * and the places that copied it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The code that runs: packages, services, benches and test support, not the tests themselves. */
const productFiles = ['packages', 'services', 'bench/src', 'test/support']
  .flatMap(sourceFiles)
  .filter((path) => !/\.test\.ts$/.test(path))
  .map((path) => relative(root, join(root, path)));

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

/** `path:line` of every node of every product file the predicate picks. */
function find(predicate: (node: ts.Node) => boolean): string[] {
  const found: string[] = [];
  for (const path of productFiles) {
    const file = parse(path);
    const visit = (node: ts.Node): void => {
      if (predicate(node)) found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

const fileOf = (place: string) => place.slice(0, place.lastIndexOf(':'));
const propertyNames = (node: ts.ObjectLiteralExpression) =>
  new Set(
    node.properties.flatMap((property) =>
      property.name && ts.isIdentifier(property.name) ? [property.name.text] : [],
    ),
  );

describe('one owner per shared concern', () => {
  it("docs/ARCHITECTURE.md's map names files that exist", () => {
    const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const map = doc.slice(doc.indexOf('## Who owns what'), doc.indexOf('\n## ', doc.indexOf('## Who owns what') + 1));
    const named = [...map.matchAll(/`((?:packages|services|schemas|test|bench)\/[^`]+|eslint\.config\.js)`/g)].map(
      (match) => match[1]!,
    );
    const exists = (path: string) =>
      path.includes('/*/')
        ? readdirSync(join(root, path.slice(0, path.indexOf('/*/')))).some((dir) =>
            existsSync(join(root, path.replace('/*/', `/${dir}/`))),
          )
        : existsSync(join(root, path));
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((path) => !exists(path))).toEqual([]);
  });

  it('a regular expression setting is checked by core regexSource only', () => {
    const copies = productFiles.filter((path) =>
      /refine\(\s*\(\w+\)\s*=>\s*\{\s*try\s*\{\s*new RegExp\(/.test(readFileSync(join(root, path), 'utf8')),
    );
    expect(copies).toEqual(['packages/core/src/config/regex-source.ts']);
  });

  it('a StatusUpdate is built field by field only by core statusUpdate', () => {
    const built = find((node) => {
      if (!ts.isObjectLiteralExpression(node)) return false;
      const names = propertyNames(node);
      return names.has('duplicateOf') && names.has('retryAfterMs') && names.has('rawDigest');
    });
    expect(built.map(fileOf)).toEqual(['packages/core/src/status-update.ts']);
  });

  it('CRAWLER_TOPIC_PREFIX is applied by the crawl bus, not threaded through the code that uses it', () => {
    const mentions = productFiles.filter((path) => /\btopicPrefix\b/.test(readFileSync(join(root, path), 'utf8')));
    expect(mentions.sort()).toEqual([
      // The setting, and the two places that open the crawl's bus (services and operators' commands).
      'packages/adapters/src/create-ports.ts',
      'packages/cli/src/ops/crawl-status.ts', // the field of `crawler status --json` that shows it
      'packages/cli/src/ops/stack-access.ts',
      'packages/core/src/config/config-file-keys.ts',
      'packages/core/src/service/runtime-settings.ts',
    ]);
  });

  it('a worker thread is started only by core WorkerPool', () => {
    const starts = find(
      (node) => ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Worker',
    );
    expect(starts.map(fileOf)).toEqual(['packages/core/src/workers/worker-pool.ts']);
  });

  it("an error code is written only in core's registry; code names it as ErrorCode.X", () => {
    const codes = new Set(Object.keys(errorCodes));
    const written = find(
      (node) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && codes.has(node.text),
    );
    expect(written.map(fileOf)).toEqual([
      // Kafka's own error type, which happens to be spelled like the crawler's MESSAGE_TOO_LARGE.
      'packages/kafka/src/kafka-errors.ts',
    ]);
  });

  it("a link record's next fetch is decided through core next-fetch.ts and written there only", () => {
    const writes = find(
      (node) =>
        (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'nextFetchAt') ||
        (ts.isBinaryExpression(node) &&
          node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          ts.isPropertyAccessExpression(node.left) &&
          node.left.name.text === 'nextFetchAt'),
    ).filter((place) => /^(packages|services)\//.test(place) && !place.includes('/testing/'));
    expect([...new Set(writes.map(fileOf))].sort()).toEqual([
      'packages/cli/src/commands/errors.ts', // `crawler errors --json` shows it as a time
      'packages/core/src/link-record.ts', // a record before it is scheduled: 0
      'packages/core/src/next-fetch.ts',
      'packages/elasticsearch/src/link-index-template.ts', // the field's mapping
      'packages/elasticsearch/src/link-queries.ts', // sorting and ranging on it
    ]);
  });

  it("the job's content types join the fetcher's in its one factory, and the services share one bus wiring", () => {
    const calls = (pattern: RegExp) =>
      productFiles.filter((path) => pattern.test(readFileSync(join(root, path), 'utf8'))).sort();
    expect(calls(/\bjobContentTypes\(/)).toEqual([
      'packages/core/src/crawl-job.ts',
      'services/fetcher/src/fetcher-service.ts',
    ]);
    expect(calls(/\binstrumentProducer\(|\bregisterGroupMetrics\(/)).toEqual([
      'packages/adapters/src/service-bus.ts',
      'packages/core/src/metrics/group-metrics.ts',
      'packages/core/src/metrics/producer-metrics.ts',
    ]);
  });
});
