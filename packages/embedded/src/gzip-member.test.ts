import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipMember, gzipMemberLength } from './gzip-member.js';

describe('gzipMember', () => {
  it('writes the same bytes as gzip with the default window, for records from empty to past 32 KiB', () => {
    const text = 'the harbor ferry schedule changed today, with new routes and more boats for the island ';
    for (const size of [0, 1, 200, 250, 4000, 8000, 20_000, 40_000, 200_000]) {
      for (const bytes of [Buffer.from(text.repeat(Math.ceil(size / text.length)).slice(0, size)), randomBytes(size)]) {
        const member = gzipMember(bytes, 6);
        expect(member.equals(gzipSync(bytes, { level: 6 })), `${size} bytes`).toBe(true);
        expect(gunzipSync(member).equals(bytes)).toBe(true);
      }
    }
  });
});

describe('gzipMemberLength', () => {
  it('finds where each member of concatenated gzip data ends', () => {
    const members = [Buffer.from('first record'), randomBytes(70_000), Buffer.alloc(0)].map((bytes) =>
      gzipMember(bytes, 6),
    );
    let data = Buffer.concat(members);
    for (const member of members) {
      expect(gzipMemberLength(data)).toBe(member.length);
      data = data.subarray(member.length);
    }
  });
});
