import { describe, expect, it } from 'vitest';
import { SubresourceCache } from './subresource-cache.js';

const answer = (bytes: number, headers: Record<string, string> = {}) => ({
  status: 200,
  headers: { 'content-type': 'text/javascript', ...headers },
  body: Buffer.alloc(bytes, 120),
});

describe('subresource cache', () => {
  it('keeps 200 answers within its byte budget, least recently used out first', () => {
    const cache = new SubresourceCache(1000);
    cache.put('a', answer(90));
    cache.put('b', answer(90));
    expect(cache.get('a')?.body.length).toBe(90);
    for (let i = 0; i < 10; i++) cache.put(`filler-${i}`, answer(90));
    expect(cache.get('a')).not.toBeNull();
    expect(cache.get('b')).toBeNull();
    expect(cache.size.bytes).toBeLessThanOrEqual(1000);
  });

  it('keeps nothing a site asked not to keep, no error, nothing larger than a tenth of the budget', () => {
    const cache = new SubresourceCache(1000);
    cache.put('private', answer(10, { 'cache-control': 'private, max-age=60' }));
    cache.put('no-store', answer(10, { 'cache-control': 'no-store' }));
    cache.put('missing', { ...answer(10), status: 404 });
    cache.put('huge', answer(101));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('forgets an answer after ten minutes', () => {
    let now = 0;
    const cache = new SubresourceCache(1000, () => now);
    cache.put('a', answer(10));
    now += 9 * 60_000;
    expect(cache.get('a')).not.toBeNull();
    now += 2 * 60_000;
    expect(cache.get('a')).toBeNull();
    expect(cache.size.bytes).toBe(0);
  });
});
