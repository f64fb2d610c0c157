import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content.js';
import { treeOf } from './test-tree.js';

// Patterns of documentation pages (reference pages, indexes, tables of contents, manual pages),
// written from how real generators lay them out, each a weakness the story-shaped scorer had.

const sentence = (topic: string, i: number) =>
  `The ${topic} clause, described in note ${i}, decides which rows are kept, in what order, and how ties are broken.`;
const paragraphs = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `<p>${sentence(topic, i)}</p>`).join('');
const mainText = (html: string, title: string | null = null) => extractMainContent(treeOf(html).root, title).text;
const expectParts = (text: string, parts: string[]) => {
  for (const part of parts) expect(text).toContain(part);
};
const links = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}-${i}">${prefix} entry number ${i}</a></li>`).join('');
/** Site navigation the way documentation generators write it: a table of links, no nav element. */
const navTable = (label: string) =>
  `<div class="nav${label.toLowerCase()}"><table><tr><th>${label}: Reference Part Two</th></tr><tr><td><a href="/prev">Prev</a></td><td><a href="/up">Up</a></td><td><a href="/">Home</a></td><td><a href="/next">Next</a></td></tr><tr><td>A previous chapter of this manual</td><td>The next chapter of this manual</td></tr></table></div>`;

describe('extractMainContent on documentation pages', () => {
  it('keeps every section of a reference page, not only the one that scores best', () => {
    const clauses = ['with', 'from', 'where', 'group', 'having', 'window']
      .map((clause) => `<div class="refsect2"><h3>${clause.toUpperCase()} Clause</h3>${paragraphs(clause, 5)}</div>`)
      .join('');
    const html = `<body>${navTable('Header')}<div class="refentry">
      <div class="refnamediv"><h2>SELECT</h2><p>SELECT — retrieve rows from a table or view</p></div>
      <div class="refsynopsisdiv"><h2>Synopsis</h2><pre>SELECT [ ALL | DISTINCT ] expression
    [ FROM from_item ]
    [ WHERE condition ]</pre></div>
      <div class="refsect1"><h2>Description</h2><p>SELECT retrieves rows from zero or more tables.</p></div>
      <div class="refsect1"><h2>Parameters</h2>${clauses}</div>
      <div class="refsect1"><h2>Compatibility</h2><p>The SELECT statement is compatible with the SQL standard.</p></div>
    </div>${navTable('Footer')}</body>`;
    const text = mainText(html, 'SELECT');
    expectParts(text, [
      'Synopsis',
      'SELECT [ ALL | DISTINCT ] expression',
      'SELECT retrieves rows from zero or more tables.',
      sentence('window', 4),
      'The SELECT statement is compatible with the SQL standard.',
    ]);
    expect(text).not.toContain('Prev');
  });

  it('keeps the whole of a section whose best part is a table', () => {
    // DocBook's function tables: a class on every cell, a paragraph per signature and description.
    const table = (n: number) => {
      const rows = Array.from(
        { length: 30 },
        (_, i) =>
          `<tr><td class="func_table_entry"><p class="func_signature"><code>json_func_${n}_${i}(value, path, vars, silent)</code></p><p>Returns the value at path ${i}, or null, when the path does not exist, as text, as json, or as jsonb.</p></td></tr>`,
      ).join('');
      return `<div class="table"><p class="title"><b>Table 9.4${n}. JSON Functions</b></p><div class="table-contents"><table class="table"><thead><tr><th>Function</th></tr></thead><tbody>${rows}</tbody></table></div></div>`;
    };
    const html = `<body>${navTable('Header')}<div class="sect1"><h2>9.16. JSON Functions</h2><p>This section describes the functions for JSON data.</p>
      <div class="sect2"><h3>9.16.1. Processing JSON</h3><p>Table 9.45 shows the functions that process JSON values.</p>${table(5)}<p>Table 9.46 shows the functions that build JSON values.</p>${table(6)}</div>
      <div class="sect2"><h3>9.16.2. The SQL/JSON Path Language</h3>${paragraphs('path', 3)}</div>
    </div>${navTable('Footer')}</body>`;
    const text = mainText(html, '9.16. JSON Functions');
    expectParts(text, [
      'This section describes the functions for JSON data.',
      'Table 9.45. JSON Functions',
      'json_func_5_29(value, path, vars, silent)',
      'Table 9.46 shows the functions that build JSON values.',
      'json_func_6_29(value, path, vars, silent)',
      sentence('path', 2),
    ]);
  });

  it('reads an index, which is all links, as its content', () => {
    // Sphinx's general index: entries are links; a group names its entries in plain text.
    const entry = (i: number) => `<li><a href="/e${i}">p_entry_${i}() (in module os)</a></li>`;
    const group = (name: string) =>
      `<li>${name}<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/${name}${i}">${name} item ${i}, see also part ${i}</a></li>`).join('')}</ul></li>`;
    const column = (from: number, groupName: string) =>
      `<td><ul>${Array.from({ length: 40 }, (_, i) => entry(from + i)).join('')}${group(groupName)}</ul></td>`;
    const html = `<body><div class="related" role="navigation"><a href="/">Home</a> <a href="/modules">Modules</a></div><div class="document"><div class="body" role="main"><h1>Index – P</h1><table class="indextable"><tr>${column(0, 'pickle')}${column(40, 'protocol')}</tr></table></div><div class="sidebar" role="navigation"><h3>Quick search</h3></div></div></body>`;
    const text = mainText(html, 'Index – P');
    expectParts(text, [
      'p_entry_0() (in module os)',
      'p_entry_79() (in module os)',
      'pickle item 11',
      'protocol item 11',
    ]);
    expect(text).not.toContain('Modules');
  });

  it('reads a chapter page of only a table of contents as that, not its navigation', () => {
    const toc = Array.from(
      { length: 50 },
      (_, i) => `<dt><a href="/ch43-${i}.html">43.${i + 1}. Section ${i + 1} of the chapter</a></dt>`,
    ).join('');
    const html = `<body>${navTable('Header')}<div class="chapter"><div class="titlepage"><h2>Chapter 43. Procedural Language</h2></div><div class="toc"><p><b>Table of Contents</b></p><dl class="toc">${toc}</dl></div></div>${navTable('Footer')}</body>`;
    const text = mainText(html, 'Chapter 43. Procedural Language');
    // The heading repeats the title: dropped, as from a story (the page is long enough).
    expect(text.split('\n')).toEqual([
      'Table of Contents',
      ...Array.from({ length: 50 }, (_, i) => `43.${i + 1}. Section ${i + 1} of the chapter`),
    ]);
  });

  it('reads a part page, where a navigation cell scored best, from where its text is', () => {
    const toc = Array.from(
      { length: 120 },
      (_, i) => `<dt><a href="/ch52-${i}.html">52.${i + 1}. Internals section ${i + 1}</a></dt>`,
    ).join('');
    const html = `<body>${navTable('Header')}<div class="part"><div class="titlepage"><h1>Part VII. Internals</h1></div><div class="toc"><p><b>Table of Contents</b></p><dl class="toc">${toc}</dl></div></div>${navTable('Footer')}</body>`;
    const lines = mainText(html, 'Internals').split('\n');
    expect(lines.slice(0, 3)).toEqual(['Part VII. Internals', 'Table of Contents', '52.1. Internals section 1']);
    expect(lines).toHaveLength(122);
  });

  it('keeps a document’s own table of contents, notes, version lines and last sections', () => {
    const html = `<body><div class="document"><div class="body" role="main"><section id="module-cookies">
      <h1>http.cookies — HTTP state management</h1>
      <p class="source">Source code: <a href="/lib/cookies.py">Lib/http/cookies.py</a></p>
      <div class="toctree"><ul>${links('chapter', 6)}</ul></div>
      ${paragraphs('module', 3)}
      <section id="cookie-objects"><h2>Cookie Objects</h2>${paragraphs('cookie', 4)}
        <div class="versionadded"><p>New in version 3.6.</p></div>
        <div class="note"><p>See <a href="/a">BaseCookie.load()</a>, <a href="/b">SimpleCookie</a> and <a href="/c">Morsel.set()</a>.</p></div>
      </section>
      <section id="example"><h2>Example</h2>${paragraphs('example', 3)}</section>
      <section id="see-also"><h2>See Also</h2><p><a href="/d">urllib.request</a>, <a href="/e">http.cookiejar</a></p></section>
    </section></div></div></body>`;
    const text = mainText(html, 'http.cookies — HTTP state management — Python documentation');
    expectParts(text, [
      'Source code: Lib/http/cookies.py',
      'chapter entry number 5',
      'Cookie Objects',
      sentence('cookie', 3),
      'New in version 3.6.',
      'See BaseCookie.load(), SimpleCookie and Morsel.set().',
      'See Also',
      'urllib.request, http.cookiejar',
    ]);
  });

  it('still drops what trails a document: more stories, related links, comments', () => {
    const html = `<body><main><article>
      <h1>Harbor dredging approved</h1>${paragraphs('harbor', 12)}
      <ul class="story-links"><li><a href="/s/1">More city news</a></li><li><a href="/s/2">Council votes on the budget</a></li></ul>
      <div id="comments"><h3>Comments</h3>${paragraphs('comment', 2)}</div>
    </article></main></body>`;
    const text = mainText(html, 'Harbor dredging approved | The Ledger');
    expect(text.split('\n')).toEqual(Array.from({ length: 12 }, (_, i) => sentence('harbor', i)));
  });

  it('keeps a manual page’s title block and drops what the page appends after it', () => {
    const manual = (after: string) =>
      `<body class="manpage"><div id="header"><h1>git-mv(1) Manual Page</h1><h2>NAME</h2><div class="sectionbody"><p>git-mv - Move or rename a file, a directory, or a symlink</p></div></div>
      <div id="content"><div class="sect1"><h2>DESCRIPTION</h2><div class="sectionbody">${paragraphs('move', 5)}</div></div><div class="sect1"><h2>OPTIONS</h2><div class="sectionbody">${paragraphs('option', 3)}</div></div></div>
      ${after}<div id="footer"><div id="footer-text">Last updated 2024-05-31</div></div></body>`;
    const text = mainText(manual(''), 'git-mv(1)');
    expect(text.split('\n').slice(0, 3)).toEqual([
      'git-mv(1) Manual Page',
      'NAME',
      'git-mv - Move or rename a file, a directory, or a symlink',
    ]);
    expect(text).not.toContain('Last updated');
    const followed = mainText(manual(`<p>Generated for the project's web site on its build server.</p>`), 'git-mv(1)');
    expect(followed).toContain(sentence('option', 2));
    expect(followed).not.toContain('Manual Page');
  });

  it('looks inside a page that scored as a whole for where its text is', () => {
    // A content-like class on <body> makes the whole page score best when the prose is short.
    const long = (i: number) =>
      `<p>Paragraph ${i} explains what a column gets when a new row is created and no value is given for it at all in the statement that creates the row and so the default applies instead of a null value which would be stored otherwise when the column has no default set by the table definition or by an alter statement.</p>`;
    const bar = (place: string) =>
      `<div class="nav${place}"><a href="/prev">Prev</a> <a href="/up">Up</a> <a href="/next">Next</a></div>`;
    const html = `<body class="doc-content">${bar('header')}<div class="sect1"><h2>5.2. Default Values</h2>${[1, 2, 3, 4].map(long).join('')}</div>${bar('footer')}</body>`;
    const text = mainText(html, '5.2. Default Values');
    expect(text).toContain('Paragraph 4 explains');
    expect(text).not.toContain('Prev');
  });

  it('keeps the heading of a short page, which is much of what it says', () => {
    const html = `<body><div class="chapter"><h2>Chapter 3. Advanced Features</h2><p>This chapter discusses some more advanced features, briefly.</p></div></body>`;
    expect(mainText(html, 'Chapter 3. Advanced Features')).toBe(
      'Chapter 3. Advanced Features\nThis chapter discusses some more advanced features, briefly.',
    );
  });
});
