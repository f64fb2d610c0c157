import { hostname } from 'node:os';

/** `hostname/pid`: which process a group member or a commit belongs to (a pod name on Kubernetes). */
export const processInstance = `${hostname()}/${process.pid}`;

/**
 * Carried as the userData of a member's subscription, which every group description returns:
 * client ids stay as configured (broker quotas match them exactly) and yet processes are told apart.
 */
export function encodeMemberIdentity(): Buffer {
  return Buffer.from(JSON.stringify({ instance: processInstance }));
}

export function decodeMemberIdentity(userData: Buffer | null | undefined): string | null {
  return readJsonField(userData?.toString('utf8'), 'instance', 'string');
}

/**
 * Carried as the metadata of every offset commit. The stage runner commits only offsets that
 * moved, so `at` is when the partition last made progress, readable by anyone who fetches offsets.
 */
export function encodeCommitMetadata(now: number): string {
  return JSON.stringify({ at: now, by: processInstance });
}

export function commitTimeOf(metadata: string | null | undefined): number | null {
  return readJsonField(metadata, 'at', 'number');
}

export function commitAuthorOf(metadata: string | null | undefined): string | null {
  return readJsonField(metadata, 'by', 'string');
}

function readJsonField<T extends 'string' | 'number'>(
  text: string | null | undefined,
  field: string,
  type: T,
): (T extends 'string' ? string : number) | null {
  if (!text || !text.startsWith('{')) return null; // other clients' metadata is theirs to shape
  try {
    const value: unknown = (JSON.parse(text) as Record<string, unknown>)[field];
    return typeof value === type ? (value as T extends 'string' ? string : number) : null;
  } catch {
    return null;
  }
}
