import { describe, expect, it } from 'vitest';
import { BEGIN_MARKER, END_MARKER, replaceGeneratedSection } from './docs-section.js';

const page = '# Benchmarks\n\nIntro.\n\n## Fetcher alone\n\nTheirs.\n';

describe('replaceGeneratedSection', () => {
  it('goes after the introduction the first time, before the other sections', () => {
    const out = replaceGeneratedSection(page, '## Where we stand\n\nfigures');
    expect(out).toBe(
      `# Benchmarks\n\nIntro.\n\n${BEGIN_MARKER}\n## Where we stand\n\nfigures\n${END_MARKER}\n\n## Fetcher alone\n\nTheirs.\n`,
    );
  });

  it('replaces only what is between the markers on later runs', () => {
    const once = replaceGeneratedSection(page, 'old figures');
    const edited = once.replace('Theirs.', 'Theirs, edited meanwhile.');
    const twice = replaceGeneratedSection(edited, 'new figures');
    expect(twice).toContain('new figures');
    expect(twice).not.toContain('old figures');
    expect(twice).toContain('Theirs, edited meanwhile.');
    expect(twice.split(BEGIN_MARKER)).toHaveLength(2);
  });

  it('appends to a page without sections', () => {
    expect(replaceGeneratedSection('# Benchmarks\n', 'x')).toBe(`# Benchmarks\n\n${BEGIN_MARKER}\nx\n${END_MARKER}\n`);
  });
});
