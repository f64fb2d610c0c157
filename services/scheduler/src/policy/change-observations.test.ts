import { MAX_CHANGE_HISTORY } from '@crawler/core';
import { describe, expect, it } from 'vitest';
import { appendObservations, fetchObservations } from './change-observations.js';

describe('change observations', () => {
  it('records a re-fetch as the time since the previous fetch, changed or not', () => {
    expect(fetchObservations({ at: 5000, previousAt: 1000, changed: true, lastModifiedAt: null })).toEqual([
      { ms: 4000, changed: true },
    ]);
    expect(fetchObservations({ at: 5000, previousAt: 1000, changed: false, lastModifiedAt: null })).toEqual([
      { ms: 4000, changed: false },
    ]);
  });

  it('splits a change at Last-Modified: changed before it, unchanged since', () => {
    expect(fetchObservations({ at: 5000, previousAt: 1000, changed: true, lastModifiedAt: 2000 })).toEqual([
      { ms: 1000, changed: true },
      { ms: 3000, changed: false },
    ]);
  });

  it('ignores a Last-Modified that contradicts the content or lies in the future', () => {
    expect(fetchObservations({ at: 5000, previousAt: 1000, changed: false, lastModifiedAt: 4000 })).toEqual([
      { ms: 4000, changed: false },
    ]);
    expect(fetchObservations({ at: 5000, previousAt: 1000, changed: true, lastModifiedAt: 9000 })).toEqual([
      { ms: 4000, changed: true },
    ]);
  });

  it('on a first fetch, knows only how long the page has not changed', () => {
    expect(fetchObservations({ at: 5000, previousAt: null, changed: null, lastModifiedAt: 3000 })).toEqual([
      { ms: 2000, changed: false },
    ]);
    expect(fetchObservations({ at: 5000, previousAt: null, changed: null, lastModifiedAt: null })).toEqual([]);
  });

  it('keeps the newest observations only', () => {
    const full = Array.from({ length: MAX_CHANGE_HISTORY }, (_, i) => ({ ms: i + 1, changed: false }));
    const next = appendObservations(full, [{ ms: 999, changed: true }]);
    expect(next).toHaveLength(MAX_CHANGE_HISTORY);
    expect(next[0]).toEqual({ ms: 2, changed: false });
    expect(next.at(-1)).toEqual({ ms: 999, changed: true });
  });
});
