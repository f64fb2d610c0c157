import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks an Authorization header against the token in constant time: both sides are hashed first,
 * so neither the comparison time nor an early length check tells how much of a guess was right.
 */
export function createTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    return timingSafeEqual(given, expected) && match !== null;
  };
}
