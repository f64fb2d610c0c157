import { selectAll } from 'css-select';
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { collapseWhitespace } from '../content/render-text.js';
import type { CompiledRule } from './extraction-rules.js';

const MAX_VALUE_CHARS = 2000;
const MAX_LIST_VALUES = 100;
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template']);

export interface RuleFields {
  /** Field values by name; a field with no value is absent. */
  fields: Map<string, string[]>;
  /** Names of the rules that applied to the page. */
  matched: string[];
  /** Required fields that found no value. */
  missing: string[];
}

/** The rules whose URL patterns match the page. */
export function rulesFor(rules: readonly CompiledRule[], url: string): CompiledRule[] {
  return rules.filter((rule) => rule.urls.some((pattern) => pattern.test(url)));
}

/**
 * Applies rules to a page. A DOM is built only here, for pages some rule matched, since the
 * link pass needs none. Values are trimmed, whitespace-collapsed and capped.
 */
export function applyRules(html: string, rules: readonly CompiledRule[]): RuleFields {
  const result: RuleFields = { fields: new Map(), matched: [], missing: [] };
  if (rules.length === 0) return result;
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  for (const rule of rules) {
    result.matched.push(rule.name);
    for (const field of rule.fields) {
      const elements = selectAll<AnyNode, Element>(field.matches, document);
      const values: string[] = [];
      for (const element of elements) {
        const raw = field.attribute ? element.attribs[field.attribute.toLowerCase()] : elementText(element);
        const value = raw === undefined ? '' : collapseWhitespace(raw).slice(0, MAX_VALUE_CHARS);
        if (value) values.push(value);
        if (values.length >= (field.list ? MAX_LIST_VALUES : 1)) break;
      }
      if (values.length > 0) result.fields.set(field.name, values);
      else if (field.required && !result.missing.includes(field.name)) result.missing.push(field.name);
    }
  }
  return result;
}

/** Visible text of an element (iterative, so deep nesting cannot overflow the stack). */
function elementText(root: Element): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) parts.push(node.data);
    else if (isTag(node) && !INVISIBLE.has(node.name)) {
      if (node !== root && BLOCKISH.has(node.name)) parts.push(' ');
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return parts.join('');
}

const BLOCKISH = new Set([
  'p',
  'div',
  'li',
  'br',
  'td',
  'th',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
]);
