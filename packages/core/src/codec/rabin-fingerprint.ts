/**
 * CRC-64-AVRO (Rabin) fingerprint of a schema's Parsing Canonical Form, as the Avro specification
 * defines it for single-object encoding. Computed once per schema, so BigInt speed does not matter.
 */
const EMPTY = 0xc15d213aa4d7a795n;
const MASK = 0xffffffffffffffffn;

const TABLE: bigint[] = Array.from({ length: 256 }, (_, i) => {
  let fp = BigInt(i);
  for (let j = 0; j < 8; j++) fp = (fp >> 1n) ^ (EMPTY & -(fp & 1n) & MASK);
  return fp;
});

export function rabinFingerprint(canonicalForm: string): bigint {
  let fp = EMPTY;
  for (const byte of Buffer.from(canonicalForm, 'utf8')) {
    fp = (fp >> 8n) ^ TABLE[Number((fp ^ BigInt(byte)) & 0xffn)]!;
  }
  return fp;
}

/** The fingerprint as the 8 little-endian bytes that follow the single-object marker. */
export function fingerprintBytes(fp: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(fp);
  return out;
}

export function fingerprintHex(fp: bigint): string {
  return fp.toString(16).padStart(16, '0');
}
