import { describe, expect, it } from 'vitest';
import { createRequestLog } from './request-log.js';

describe('request log', () => {
  it('counts per URL and method until reset', () => {
    const log = createRequestLog();
    log.record('http://127.0.0.1:1/a', 'GET');
    log.record('http://127.0.0.1:1/a', 'GET');
    log.record('http://127.0.0.1:1/a', 'HEAD');
    log.record('http://127.0.0.1:1/b', 'GET');
    expect(log.count('http://127.0.0.1:1/a')).toBe(3);
    expect(log.count('http://127.0.0.1:1/a', 'HEAD')).toBe(1);
    expect(log.count('http://127.0.0.1:1/never')).toBe(0);
    expect(log.total()).toBe(4);
    expect(log.urls().sort()).toEqual(['http://127.0.0.1:1/a', 'http://127.0.0.1:1/b']);
    log.recordNotModified('http://127.0.0.1:1/a');
    expect([
      log.notModified('http://127.0.0.1:1/a'),
      log.notModified('http://127.0.0.1:1/b'),
      log.notModified(),
    ]).toEqual([1, 0, 1]);
    log.reset();
    expect([log.total(), log.count('http://127.0.0.1:1/a'), log.urls(), log.notModified()]).toEqual([0, 0, [], 0]);
  });

  it('keeps each request with its arrival time and client address', () => {
    let clock = 1000;
    const log = createRequestLog(() => clock);
    log.record('http://127.0.0.1:1/a', 'GET', '127.0.0.1');
    clock = 1250.5;
    log.record('http://127.0.0.1:1/b', 'HEAD', '127.0.0.2');
    expect(log.entries()).toEqual([
      { url: 'http://127.0.0.1:1/a', method: 'GET', at: 1000, remote: '127.0.0.1' },
      { url: 'http://127.0.0.1:1/b', method: 'HEAD', at: 1250.5, remote: '127.0.0.2' },
    ]);
    log.reset();
    expect(log.entries()).toEqual([]);
  });
});
