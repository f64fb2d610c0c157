import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cutTornTail } from './torn-tail.js';

describe('cutTornTail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'torn-tail-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts the fragment after the last newline and keeps whole lines', () => {
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, '{"a":1}\n{"b":2}\n{"c":');
    expect(cutTornTail(path)).toBe(16);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
  });

  it('leaves a file of whole lines alone, empties a file of one fragment, and knows no file', () => {
    const whole = join(dir, 'b.jsonl');
    writeFileSync(whole, 'x\ny\n');
    expect(cutTornTail(whole)).toBe(4);
    const fragment = join(dir, 'c.jsonl');
    writeFileSync(fragment, 'no newline at all');
    expect(cutTornTail(fragment)).toBe(0);
    expect(readFileSync(fragment, 'utf8')).toBe('');
    expect(cutTornTail(join(dir, 'missing.jsonl'))).toBe(0);
  });

  it('finds the last newline more than one read chunk back', () => {
    const path = join(dir, 'd.jsonl');
    writeFileSync(path, `line\n${'z'.repeat(200_000)}`);
    expect(cutTornTail(path)).toBe(5);
  });
});
