import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { docCodeBlock } from './doc-code-blocks.js';

const execute = promisify(execFile);

/**
 * Runs docs/DATA.md's Java topic reader as printed: its pom and source written to `dir`, the
 * classpath resolved by Maven (Central, cached in ~/.m2), then `java ReadCrawlTopic.java args...`.
 * Returns the lines it printed.
 */
export async function runJavaReader(dir: string, args: readonly string[]): Promise<string[]> {
  writeFileSync(join(dir, 'pom.xml'), docCodeBlock('### Java', 'xml'));
  writeFileSync(join(dir, 'ReadCrawlTopic.java'), docCodeBlock('### Java', 'java'));
  await execute(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      join(dir, 'pom.xml'),
      'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath',
      `-Dmdep.outputFile=${join(dir, 'cp.txt')}`,
    ],
    { timeout: 300_000 },
  );
  const classpath = readFileSync(join(dir, 'cp.txt'), 'utf8').trim();
  const { stdout } = await execute('java', ['-cp', classpath, join(dir, 'ReadCrawlTopic.java'), ...args], {
    timeout: 120_000,
  });
  return stdout.trim().split('\n');
}
