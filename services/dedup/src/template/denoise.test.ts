import { describe, expect, it } from 'vitest';
import { denoiseText } from './denoise.js';
import { learnTemplate, sampleOf } from './learn-template.js';
import { blocksOf, newsPage, storyText } from './test-pages.js';

const template = learnTemplate(
  Array.from({ length: 10 }, (_, i) => sampleOf(blocksOf(newsPage(i + 1)))),
  0,
);

describe('denoiseText', () => {
  it('removes the template lines of the main text and keeps the story', () => {
    const html = newsPage(77);
    const story = [storyText(77, 'title'), storyText(77), storyText(77, 'second paragraph')];
    const main = [
      story[0],
      'Updated 10:87 · 2387 reads',
      story[1],
      'Learn to sail this summer.',
      story[2],
      'Share this story with friends.',
    ].join('\n');
    expect(denoiseText(main, blocksOf(html), template)).toBe(story.join('\n'));
    expect(denoiseText(main, blocksOf(html), null)).toBe(main);
  });

  it('keeps a line the page also shows in a template box, matching lines to blocks in order', () => {
    const html =
      '<html><body><main><ul class="index"><li>Ferry Plan Approved</li><li>Harbor Opens</li></ul></main><aside class="related"><ul><li>Ferry Plan Approved</li></ul></aside></body></html>';
    const related = (n: number) =>
      `<html><body><main><ul class="index"><li>${storyText(n)}</li></ul></main><aside class="related"><ul><li>${storyText(n % 2, 'related')}</li></ul></aside></body></html>`;
    const boxes = learnTemplate(
      Array.from({ length: 10 }, (_, i) => sampleOf(blocksOf(related(i)))),
      0,
    );
    expect(denoiseText('Ferry Plan Approved\nHarbor Opens\nFerry Plan Approved', blocksOf(html), boxes)).toBe(
      'Ferry Plan Approved\nHarbor Opens',
    );
  });
});
