import type { FingerprintEntry } from '@crawler/core';
import type { Decided, ExactDecision } from './decide-exact.js';
import { DIGEST_NAMESPACE } from './decide-exact.js';
import type { ShingleSketch } from './fingerprint/shingle-sketch.js';
import type { ResolvedVerdict } from './judge/verdict-cache.js';
import { encodeRegistration } from './registration.js';

/**
 * The digest's registration, written again when the decision added to it: a fresh verdict, one
 * inherited from a copy or a stored version, the original of a near duplicate; or, for a page filed
 * in the index whose registration predates sketches, its sketch, so matches against it can be
 * verified. A registration another page owns by size (decide-exact.ts) is never written.
 */
export function registrationUpdate(
  exact: ExactDecision,
  decided: Decided,
  verdict: ResolvedVerdict,
  inheritedVerdict: string | null,
  filedSketch: ShingleSketch | null,
  ttlMs: number,
): FingerprintEntry | null {
  if (!decided.ownsRegistration) return null;
  const sketch = decided.owner.sketch ?? filedSketch;
  const changed =
    verdict.judged ||
    (inheritedVerdict !== null && decided.owner.verdict === null) ||
    decided.owner.nearOf !== exact.owner.nearOf ||
    sketch !== decided.owner.sketch;
  if (!changed) return null;
  return {
    namespace: DIGEST_NAMESPACE,
    key: decided.ownerDigest,
    value: encodeRegistration({ ...decided.owner, verdict: verdict.label, sketch }),
    ttlMs,
  };
}
