import { describe, expect, it } from 'vitest';
import {
  commitTimeOf,
  decodeMemberIdentity,
  encodeCommitMetadata,
  encodeMemberIdentity,
  processInstance,
} from './member-identity.js';

describe('member identity and commit metadata', () => {
  it('round-trips the process of a member and the time of a commit', () => {
    expect(processInstance).toBe(`${processInstance.split('/')[0]}/${process.pid}`);
    expect(decodeMemberIdentity(encodeMemberIdentity())).toBe(processInstance);
    expect(commitTimeOf(encodeCommitMetadata(1_700_000_000_123))).toBe(1_700_000_000_123);
  });

  it('reads what other clients wrote as unknown instead of failing', () => {
    expect(decodeMemberIdentity(Buffer.alloc(0))).toBeNull();
    expect(decodeMemberIdentity(null)).toBeNull();
    expect(commitTimeOf('')).toBeNull();
    expect(commitTimeOf('event-id-3')).toBeNull();
    expect(commitTimeOf('{"at":"yesterday"}')).toBeNull();
    expect(commitTimeOf('{broken')).toBeNull();
  });
});
