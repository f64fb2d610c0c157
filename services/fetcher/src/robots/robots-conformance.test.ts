import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from './robots-txt.js';

/** [agent, url, the suite's answer, RFC 9309's answer where the two disagree, why] */
type Expectation = [string, string, boolean, boolean?, string?];
interface Group {
  suite: string;
  test: string;
  class: string;
  robots: string;
  bytes?: 'latin1';
  expect: Expectation[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/robots-conformance.json', import.meta.url), 'utf8')) as {
  groups: Group[];
};

/** `{a*16649}` stands for 16,649 times `a` (the suites' very long lines). */
const expand = (text: string) =>
  text.replace(/\{(.)\*(\d+)\}/g, (_, char: string, count: string) => char.repeat(Number(count)));

interface Outcome {
  group: Group;
  agent: string;
  url: string;
  expected: boolean;
  suite: boolean;
  got: boolean;
}

const outcomes: Outcome[] = fixture.groups.flatMap((group) => {
  const body = Buffer.from(expand(group.robots), group.bytes ?? 'utf8');
  return group.expect.map(([agent, url, suite, rfc]) => {
    const got = parseRobotsTxt(body, agent).isAllowed(new URL(expand(url)));
    return { group, agent, url, expected: rfc ?? suite, suite, got };
  });
});
const passed = outcomes.filter((outcome) => outcome.got === outcome.expected);
const failures = outcomes.filter((outcome) => outcome.got !== outcome.expected);
const describeCase = (outcome: Outcome) =>
  `${outcome.group.suite} ${outcome.group.test} [${outcome.group.class}]: ${outcome.agent} ${outcome.url.slice(0, 80)} expected ${outcome.expected}, got ${outcome.got}`;

describe('robots.txt conformance suites (google/robotstxt, robotstxt-java, RFC 9309)', () => {
  it('passes at least 99% of the public cases, where the suites and RFC 9309 agree or by the RFC where not', () => {
    const rate = passed.length / outcomes.length;
    const agreeing = outcomes.filter((outcome) => outcome.got === outcome.suite).length;
    console.info(
      `robots.txt conformance: ${passed.length}/${outcomes.length} pass (${(rate * 100).toFixed(1)}%); ` +
        `${agreeing}/${outcomes.length} agree with the suites' own answers (the rest follow RFC 9309)`,
    );
    expect(failures.map(describeCase)).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(0.99);
  });

  it.each(['bom', 'non-ascii-path', 'product-token-with-space', 'robots-txt', 'index-page'])(
    'passes every case of the class %s',
    (name) => {
      const cases = outcomes.filter((outcome) => outcome.group.class === name);
      expect(cases.length).toBeGreaterThan(0);
      expect(cases.filter((outcome) => outcome.got !== outcome.expected).map(describeCase)).toEqual([]);
    },
  );
});
