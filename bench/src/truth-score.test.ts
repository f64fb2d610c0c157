import { describe, expect, it } from 'vitest';
import { scoreAgainstTruth } from './truth-score.js';

const truth = ['http://127.0.0.1:4001/', 'http://127.0.0.1:4001/p/1', 'http://127.0.0.1:4002/'];

describe('scoreAgainstTruth', () => {
  it('counts truth pages fetched once each, in canonical form', () => {
    const score = scoreAgainstTruth(
      truth,
      ['http://127.0.0.1:4001/p/1#top', 'http://127.0.0.1:4001/p/1', 'http://127.0.0.1:4002'],
      new Map(),
    );
    expect(score).toMatchObject({ truthPages: 3, fetched: 2, outside: 0 });
  });

  it('counts reported pages the truth does not list', () => {
    expect(scoreAgainstTruth(truth, ['http://127.0.0.1:4001/nope'], new Map()).outside).toBe(1);
  });

  it('takes double fetches and robots.txt requests from what the server saw', () => {
    const requests = new Map([
      ['http://127.0.0.1:4001/robots.txt', 1],
      ['http://127.0.0.1:4001/', 2],
      ['http://127.0.0.1:4001/p/1', 1],
      ['http://127.0.0.1:4002/', 1],
    ]);
    expect(scoreAgainstTruth(truth, [], requests)).toMatchObject({
      requestedTwice: 1,
      robotsOrigins: 1,
      origins: 2,
      requests: 5,
    });
  });
});
