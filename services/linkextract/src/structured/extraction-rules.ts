import { readFileSync } from 'node:fs';
import type { CrawlJob } from '@crawler/core';
import { compile } from 'css-select';
import type { Element } from 'domhandler';
import { z } from 'zod';
import { ExtractionRulesError } from '../errors.js';

const fieldSchema = z.strictObject({
  selector: z.string().min(1),
  /** Read this attribute instead of the element's text. */
  attribute: z.string().min(1).optional(),
  /** Every match (in document order) instead of the first. */
  list: z.boolean().default(false),
  /** A page without a value is flagged (`rules:missing`), never dropped. */
  required: z.boolean().default(false),
});

const ruleSchema = z.strictObject({
  name: z.string().min(1),
  /** Regular expressions tested against the page's final URL; any match applies the rule. */
  urls: z.array(z.string().min(1)).min(1),
  fields: z.record(z.string().regex(/^[A-Za-z][\w.-]*$/, 'field names are letters, digits, _ . -'), fieldSchema),
});

export const ruleFileSchema = z.strictObject({ rules: z.array(ruleSchema) });

export type FieldRule = z.output<typeof fieldSchema>;

export interface CompiledField extends FieldRule {
  name: string;
  matches: ReturnType<typeof compile<Element, Element>>;
}

export interface CompiledRule {
  name: string;
  urls: RegExp[];
  fields: CompiledField[];
}

/** The job's rules: its rule file, then its inline rules, compiled once (bad selectors fail here, not per page). */
export function compileJobRules(job: CrawlJob): CompiledRule[] {
  const rules: unknown[] = [];
  const file = job.extraction.rulesFile;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (cause) {
      throw new ExtractionRulesError(`extraction rule file ${file} cannot be read: ${(cause as Error).message}`, {
        cause,
      });
    }
    rules.push(...parseRules(parsed, file).rules);
  }
  rules.push(...parseRules({ rules: job.extraction.rules }, 'crawl job extraction.rules').rules);
  return (rules as z.output<typeof ruleSchema>[]).map(compileRule);
}

function parseRules(value: unknown, source: string): z.output<typeof ruleFileSchema> {
  const parsed = ruleFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ExtractionRulesError(`${source}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

function compileRule(rule: z.output<typeof ruleSchema>): CompiledRule {
  const urls = rule.urls.map((pattern) => {
    try {
      return new RegExp(pattern);
    } catch (cause) {
      throw new ExtractionRulesError(`rule "${rule.name}": URL pattern ${pattern} is not a valid regular expression`, {
        cause,
      });
    }
  });
  const fields = Object.entries(rule.fields).map(([name, field]) => {
    try {
      return { ...field, name, matches: compile<Element, Element>(field.selector) };
    } catch (cause) {
      throw new ExtractionRulesError(
        `rule "${rule.name}", field "${name}": selector ${field.selector} is not valid CSS (${(cause as Error).message})`,
        { cause },
      );
    }
  });
  return { name: rule.name, urls, fields };
}
