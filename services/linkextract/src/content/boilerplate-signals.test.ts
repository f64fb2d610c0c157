import { describe, expect, it } from 'vitest';
import { isBoilerplate } from './boilerplate-signals.js';
import { isNode, type ContentNode } from './content-node.js';
import { treeOf } from './test-tree.js';

/** The first element of the markup's body. */
const element = (html: string): ContentNode => {
  const body = treeOf(`<body>${html}</body>`).root.children.find(isNode)!;
  return body.children.find(isNode)!;
};

describe('isBoilerplate', () => {
  it('reads furniture words in classes and ids', () => {
    expect(isBoilerplate(element('<div class="share-bar"><a href="/x">Share</a></div>'))).toBe(true);
    expect(isBoilerplate(element('<div id="comments"><p>Nice post, thanks for writing it up.</p></div>'))).toBe(true);
  });

  it('does not read the id of a section as its role: it names its subject', () => {
    // Generators name sections after their headings or topics: "cookie-objects", "sql-for-update-share".
    expect(isBoilerplate(element('<section id="cookie-objects"><h2>Cookie Objects</h2><p>Text.</p></section>'))).toBe(
      false,
    );
    expect(isBoilerplate(element('<div id="sql-for-update-share"><h3>The Locking Clause</h3></div>'))).toBe(false);
    // Without a heading opening it, or with the word in a class, the signal holds.
    expect(isBoilerplate(element('<div id="cookie-objects"><p>Text.</p></div>'))).toBe(true);
    expect(isBoilerplate(element('<section class="cookie-banner"><h2>Cookies</h2><p>We use them.</p></section>'))).toBe(
      true,
    );
  });

  it('still reads a one-word role id on a headed block, unless the heading is the document’s plain h1', () => {
    expect(isBoilerplate(element('<div id="comments"><h3>Comments</h3><p>Nice post, thanks.</p></div>'))).toBe(true);
    expect(isBoilerplate(element('<div id="header"><h1>git-mv(1) Manual Page</h1><h2>NAME</h2></div>'))).toBe(false);
    // A site banner's h1 is its logo, a link home.
    expect(isBoilerplate(element('<div id="header"><h1><a href="/">The Paper</a></h1></div>'))).toBe(true);
  });
});
