import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeRulesError } from '../errors.js';
import { createRulesJudge, loadJudgeRules } from './rules-judge.js';

const input = (text: string) => ({ url: 'http://a.test/', title: null, text, lang: 'en' });

describe('rules judge', () => {
  const judge = createRulesJudge({
    categories: [
      { name: 'weapons', keywords: ['pipe bomb', 'detonator'], patterns: ['how to (build|make) an? explosive'] },
      { name: 'gambling', verdict: 'restricted', keywords: ['casino', 'jackpot', '赌场'], minMatches: 2 },
    ],
  });

  it('matches whole words case-insensitively and names what matched', async () => {
    expect(await judge.judge(input('Police found a Pipe  Bomb and a detonator.'))).toEqual({
      verdict: 'harmful',
      category: 'weapons',
      reasons: ['detonator', 'pipe bomb'],
    });
    expect(await judge.judge(input('The detonators museum opened.'))).toEqual({
      verdict: 'ok',
      category: null,
      reasons: [],
    });
    expect((await judge.judge(input('A guide on how to make an explosive at home.'))).reasons).toEqual([
      '/how to (build|make) an? explosive/',
    ]);
  });

  it("needs the category's number of distinct matches, and matches unspaced scripts anywhere", async () => {
    expect((await judge.judge(input('casino casino casino'))).verdict).toBe('ok');
    expect(await judge.judge(input('The casino paid a jackpot.'))).toEqual({
      verdict: 'restricted',
      category: 'gambling',
      reasons: ['casino', 'jackpot'],
    });
    expect((await judge.judge(input('新开的赌场 jackpot'))).category).toBe('gambling');
  });

  it('refuses a rule file that is not valid, naming the rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify({ categories: [{ name: 'x', patterns: ['(unclosed'] }] }));
    expect(() => createRulesJudge(loadJudgeRules(file))).toThrow(/category "x": pattern \/\(unclosed\//);
    writeFileSync(file, JSON.stringify({ categories: [{ keywords: ['a'] }] }));
    expect(() => loadJudgeRules(file)).toThrow(JudgeRulesError);
    expect(() => loadJudgeRules(join(dir, 'missing.json'))).toThrow(/cannot be read/);
  });
});
