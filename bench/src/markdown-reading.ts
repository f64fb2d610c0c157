import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** What a CommonMark reader (markdown-it, with GitHub's tables) makes of a Markdown text. */
export interface MarkdownReading {
  /** The text a reader sees, blocks on their own lines; images (their alt text is no page text) left out. */
  text: string;
  headings: { level: number; text: string }[];
  /** Each list item's own text, without the lists nested in it. */
  listItems: string[];
  /** Each table's rows of cell texts, the header row first. */
  tables: string[][][];
  codeBlocks: string[];
  /** Links and images: their targets. */
  urls: string[];
}

const reader = new MarkdownIt({ html: true });

/**
 * Reads Markdown back with an independent parser, so tests and benchmarks judge what a reader of
 * the crawler's Markdown gets, not what the renderer meant to write.
 */
export function readMarkdown(markdown: string): MarkdownReading {
  const reading: MarkdownReading = { text: '', headings: [], listItems: [], tables: [], codeBlocks: [], urls: [] };
  const blocks: string[] = [];
  /** Open list items, each gathering its own text until a nested list or its end. */
  const items: { text: string[]; open: boolean }[] = [];
  let heading: number | null = null;
  let table: string[][] | null = null;
  for (const token of reader.parse(markdown, {})) {
    switch (token.type) {
      case 'heading_open':
        heading = Number(token.tag.slice(1));
        break;
      case 'heading_close':
        heading = null;
        break;
      case 'list_item_open':
        items.push({ text: [], open: true });
        break;
      case 'list_item_close':
        reading.listItems.push(collapse(items.pop()!.text.join(' ')));
        break;
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (items.length > 0) items.at(-1)!.open = false;
        break;
      case 'table_open':
        table = [];
        break;
      case 'table_close':
        reading.tables.push(table!);
        table = null;
        break;
      case 'tr_open':
        table?.push([]);
        break;
      case 'fence':
      case 'code_block': {
        const code = token.content.replace(/\n$/, '');
        reading.codeBlocks.push(code);
        blocks.push(code);
        if (items.at(-1)?.open) items.at(-1)!.text.push(code);
        break;
      }
      case 'inline': {
        const text = inlineText(token, reading.urls);
        if (heading !== null) reading.headings.push({ level: heading, text: collapse(text) });
        if (table) table.at(-1)!.push(collapse(text));
        if (items.at(-1)?.open) items.at(-1)!.text.push(text);
        blocks.push(text);
        break;
      }
    }
  }
  reading.text = blocks.join('\n');
  return reading;
}

function inlineText(token: Token, urls: string[]): string {
  let text = '';
  for (const child of token.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak') text += ' ';
    else if (child.type === 'hardbreak') text += '\n';
    else if (child.type === 'html_inline' && /^<br\s*\/?>$/i.test(child.content)) text += '\n';
    else if (child.type === 'link_open') urls.push(child.attrGet('href') ?? '');
    else if (child.type === 'image') urls.push(child.attrGet('src') ?? '');
  }
  return text;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
