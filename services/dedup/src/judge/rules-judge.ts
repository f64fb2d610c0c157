import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { JudgeRulesError } from '../errors.js';
import type { Judge, Judgement, JudgeInput } from './judge.js';

const categorySchema = z.object({
  name: z.string().min(1),
  /** The verdict when the category matches. */
  verdict: z.string().min(1).default('harmful'),
  keywords: z.array(z.string().min(1)).default([]),
  /** Regular expressions (JavaScript syntax, matched case-insensitively). */
  patterns: z.array(z.string().min(1)).default([]),
  /** Distinct keywords and patterns that must match. */
  minMatches: z.number().int().min(1).default(1),
});

export const judgeRulesSchema = z.object({ categories: z.array(categorySchema).min(1) });
export type JudgeRules = z.input<typeof judgeRulesSchema>;

/** Text read per page: rules look for phrases, and a megabyte of text adds cost, not verdicts. */
const MAX_TEXT_CHARS = 200_000;
const WORD = /[\p{L}\p{N}]+/gu;
const UNSPACED = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

interface CompiledCategory {
  name: string;
  verdict: string;
  minMatches: number;
  /** Keywords by their first word, each as its words: found in one pass over the text's words. */
  phrases: Map<string, { keyword: string; words: string[] }[]>;
  /** Keywords in unspaced scripts, found as substrings of the lower-cased text. */
  substrings: string[];
  patterns: { source: string; regex: RegExp }[];
}

export function loadJudgeRules(file: string): JudgeRules {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new JudgeRulesError(`judge rule file ${file} cannot be read: ${(cause as Error).message}`, { cause });
  }
  const parsed = judgeRulesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new JudgeRulesError(`judge rule file ${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Keyword and regular-expression lists per category. Keywords match whole words, case-insensitively
 * (a phrase: its words in sequence; in Chinese, Japanese and Korean, where words are not spaced,
 * anywhere); the first category, in file order, with enough distinct matches decides. No match:
 * "ok". The text's words are listed once for all categories, so hundreds of keywords cost one pass.
 */
export function createRulesJudge(rules: JudgeRules): Judge {
  const categories = judgeRulesSchema.parse(rules).categories.map(compileCategory);
  return {
    name: 'rules',
    async judge(input: JudgeInput): Promise<Judgement> {
      const text = `${input.title ?? ''}\n${input.text}`.slice(0, MAX_TEXT_CHARS).toLowerCase();
      const words = text.match(WORD) ?? [];
      for (const category of categories) {
        const matched = new Set<string>();
        for (let i = 0; i < words.length; i++) {
          for (const phrase of category.phrases.get(words[i]!) ?? []) {
            if (phrase.words.every((word, k) => words[i + k] === word)) matched.add(phrase.keyword);
          }
        }
        for (const keyword of category.substrings) if (text.includes(keyword)) matched.add(keyword);
        for (const pattern of category.patterns) if (pattern.regex.test(text)) matched.add(`/${pattern.source}/`);
        if (matched.size >= category.minMatches)
          return { verdict: category.verdict, category: category.name, reasons: [...matched].sort() };
      }
      return { verdict: 'ok', category: null, reasons: [] };
    },
  };
}

function compileCategory(category: z.output<typeof categorySchema>): CompiledCategory {
  const phrases = new Map<string, { keyword: string; words: string[] }[]>();
  const substrings: string[] = [];
  for (const raw of category.keywords) {
    const keyword = raw.trim().toLowerCase();
    const words = keyword.match(WORD) ?? [];
    if (UNSPACED.test(keyword) || words.length === 0) {
      substrings.push(keyword);
      continue;
    }
    const list = phrases.get(words[0]!) ?? [];
    list.push({ keyword: words.join(' '), words });
    phrases.set(words[0]!, list);
  }
  const patterns = category.patterns.map((source) => {
    try {
      return { source, regex: new RegExp(source, 'iu') };
    } catch (cause) {
      throw new JudgeRulesError(
        `judge category "${category.name}": pattern /${source}/ does not compile: ${(cause as Error).message}`,
        { cause },
      );
    }
  });
  return {
    name: category.name,
    verdict: category.verdict,
    minMatches: category.minMatches,
    phrases,
    substrings,
    patterns,
  };
}
