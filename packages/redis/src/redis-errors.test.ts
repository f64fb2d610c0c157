import { inspect } from 'node:util';
import { BackendError } from '@crawler/core';
import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { describeRedisError, isAuthError, isRedirection, toBackendError } from './redis-errors.js';

/** A reply error as ioredis hands it over: the failed command, AUTH arguments included, attached. */
function replyError(message: string, command: { name: string; args: string[] }): Error {
  return Object.assign(new ReplyError(message), { command });
}

describe('redis errors', () => {
  it('classify redirections and auth failures by the reply, not by guesswork', () => {
    expect(isRedirection(new ReplyError('MOVED 3999 127.0.0.1:6381'))).toBe(true);
    expect(isRedirection(new ReplyError('ASK 3999 127.0.0.1:6381'))).toBe(true);
    expect(isRedirection(new ReplyError('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isRedirection(new ReplyError('ERR MOVED is not a command'))).toBe(false);
    expect(isAuthError(new ReplyError('WRONGPASS invalid username-password pair or user is disabled.'))).toBe(true);
    expect(
      isAuthError(
        Object.assign(new Error('Failed to refresh slots cache.'), {
          lastNodeError: new ReplyError('NOAUTH Authentication required.'),
        }),
      ),
    ).toBe(true);
    expect(isAuthError(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(false);
  });

  it('become BackendErrors that name the operation and drop the attached command', () => {
    const error = toBackendError(
      'putIfAbsent',
      replyError('WRONGPASS invalid username-password pair or user is disabled.', {
        name: 'auth',
        args: ['user', 'hunter2'],
      }),
      ['hunter2'],
    );
    expect(error).toBeInstanceOf(BackendError);
    expect(error.message).toBe(
      'redis putIfAbsent failed: WRONGPASS invalid username-password pair or user is disabled.',
    );
    expect(error.retriable).toBe(false);
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain('hunter2');
    expect(toBackendError('get', new Error('connect ECONNREFUSED 127.0.0.1:1'), []).retriable).toBe(true);
    expect(
      toBackendError('get', new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'), [])
        .retriable,
    ).toBe(false);
  });

  it('cut known secrets and URL credentials out of any message', () => {
    expect(
      describeRedisError(new Error('cannot reach redis://admin:hunter2@10.0.0.1:6379 with hunter2'), ['hunter2']),
    ).toBe('cannot reach redis://[redacted]@10.0.0.1:6379 with [redacted]');
    expect(describeRedisError(Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' }), [])).toBe(
      'connection lost before the reply came',
    );
  });
});
