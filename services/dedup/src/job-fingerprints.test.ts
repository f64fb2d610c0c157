import { MemoryFingerprintStore } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { jobScopeOf, scopedFingerprints } from './job-fingerprints.js';

describe('job fingerprints', () => {
  it('gives each job its own prefix, and the sharing jobs ("*": all) the keys of the shared pool', () => {
    expect(jobScopeOf('news', [])).toBe('news/');
    expect(jobScopeOf('news', ['news', 'blogs'])).toBe('');
    expect(jobScopeOf('other', ['news'])).toBe('other/');
    expect(jobScopeOf('other', ['*'])).toBe('');
    // No job id reaches into another's keys, names a Redis hash tag or holds a namespace separator.
    expect(jobScopeOf('a/b', [])).toBe('a%2Fb/');
    expect(jobScopeOf('{x}:y', [])).toBe('%7Bx%7D%3Ay/');
  });

  it('keeps values and sets of two jobs apart in one store, the shared pool unprefixed', async () => {
    const store = new MemoryFingerprintStore();
    const [a, b, shared] = ['a', 'b', 'c'].map((job) => scopedFingerprints(store, jobScopeOf(job, ['c'])));
    const entry = { namespace: 'digest', key: 'd1', value: 'first', ttlMs: 60_000 };
    expect(await a!.putIfAbsent([entry])).toEqual([{ created: true, existing: null }]);
    expect(await b!.putIfAbsent([{ ...entry, value: 'second' }])).toEqual([{ created: true, existing: null }]);
    expect(await b!.get('digest', ['d1'])).toEqual(['second']);
    expect(await store.get('digest', ['a/d1', 'b/d1', 'd1'])).toEqual(['first', 'second', null]);
    await shared!.set([{ ...entry, value: 'pool' }]);
    expect(await store.get('digest', ['d1'])).toEqual(['pool']);
    await a!.addToSets([{ namespace: 'band', key: 'k', members: ['x'], ttlMs: 60_000 }]);
    await b!.addToSet('band', 'k', ['y'], 60_000);
    expect(await a!.members('band', ['k'])).toEqual([['x']]);
    expect(await b!.members('band', ['k'])).toEqual([['y']]);
    await a!.delete('digest', ['d1']);
    expect(await store.get('digest', ['a/d1', 'b/d1'])).toEqual([null, 'second']);
    await a!.close();
    expect(await b!.get('digest', ['d1'])).toEqual(['second']);
  });
});
