import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterEach, describe, expect, it } from 'vitest';
import { CodecError } from '../errors.js';
import { Schemas } from '../messages.js';
import { sampleMessages } from '../testing/sample-messages.js';
import { Codec } from './codec.js';
import { rabinFingerprint } from './rabin-fingerprint.js';
import { SchemaRegistry } from './schema-registry.js';
import { schemasDir } from './schemas-dir.js';

const codec = new Codec();
const samplesDir = join(schemasDir(), 'samples');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof CodecError ? error.code : 'not-a-codec-error';
  }
  return undefined;
}

describe('rabin fingerprint', () => {
  it('matches the Avro specification test vector for "int"', () => {
    expect(rabinFingerprint('"int"')).toBe(0x7275d51a3f395c8fn);
  });
});

describe('codec', () => {
  it('has a sample for every current schema and round-trips it', () => {
    const names = codec.registry.currentNames();
    expect(names).toEqual(Object.values(Schemas).sort());
    for (const name of names) {
      const value = (sampleMessages as Record<string, unknown>)[name];
      const bytes = codec.encode(name, value);
      expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xc3, 0x01]));
      expect(codec.decode(bytes, name)).toEqual(value);
    }
  });

  it('reads every saved sample of every schema version with the current schemas', () => {
    const files = readdirSync(samplesDir).filter((file) => file.endsWith('.bin'));
    expect(files.length).toBeGreaterThanOrEqual(codec.registry.all().length);
    for (const version of codec.registry.all()) {
      expect(files, `missing sample for ${version.name} v${version.version}; run npm run schemas:samples`).toContain(`${version.name}.v${version.version}.bin`);
    }
    for (const file of files) {
      const name = file.replace(/\.v\d+\.bin$/, '');
      const decoded = codec.decode<Record<string, unknown>>(readFileSync(join(samplesDir, file)), name);
      const expected = JSON.parse(readFileSync(join(samplesDir, file.replace(/\.bin$/, '.json')), 'utf8'), (_, v) => (v && typeof v === 'object' && 'base64' in v ? Buffer.from(v.base64, 'base64') : v));
      for (const [field, value] of Object.entries(expected)) expect(decoded[field], `${file}: ${field}`).toEqual(value);
    }
  });

  it('rejects each saved invalid sample with its expected error code', () => {
    const expected = JSON.parse(readFileSync(join(samplesDir, 'invalid', 'expected.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(5);
    for (const [file, code] of Object.entries(expected)) {
      expect(codeOf(() => codec.decode(readFileSync(join(samplesDir, 'invalid', file)))), file).toBe(code);
    }
  });

  it('refuses a payload of another schema than the topic carries', () => {
    const bytes = codec.encode(Schemas.Outlinks, sampleMessages[Schemas.Outlinks]);
    expect(codeOf(() => codec.decode(bytes, Schemas.FetchResult))).toBe('CODEC_WRONG_SCHEMA');
  });

  it('names the offending field when a value does not match its schema', () => {
    const bad = { ...sampleMessages[Schemas.FrontierRequest], depth: 'deep' };
    expect(() => codec.encode(Schemas.FrontierRequest, bad)).toThrow(/depth/);
    expect(codeOf(() => codec.encode(Schemas.FrontierRequest, bad))).toBe('CODEC_INVALID_VALUE');
  });

  it('keeps every historic schema version readable by the current one', () => {
    expect(codec.registry.backwardCompatibilityProblems()).toEqual([]);
  });
});

describe('schema evolution', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  function copySchemas(): string {
    dir = mkdtempSync(join(tmpdir(), 'schemas-'));
    cpSync(schemasDir(), dir, { recursive: true });
    return dir;
  }

  /** Moves the current schema to history as v1 and writes a changed v2, pinned in the lock file. */
  function evolve(root: string, name: string, change: (schema: { fields: object[] }) => void): void {
    const current = join(root, 'avro', `${name}.avsc`);
    const schema = JSON.parse(readFileSync(current, 'utf8'));
    cpSync(current, join(root, 'history', `${name}.v1.avsc`));
    change(schema);
    writeFileSync(current, JSON.stringify(schema));
    const lock = JSON.parse(readFileSync(join(root, 'fingerprints.json'), 'utf8'));
    const fingerprint = rabinFingerprint(JSON.stringify(avro.Type.forSchema(schema).schema())).toString(16).padStart(16, '0');
    lock[name].push({ version: 2, fingerprint });
    writeFileSync(join(root, 'fingerprints.json'), JSON.stringify(lock));
  }

  it('refuses a schema edited without a version bump', () => {
    const root = copySchemas();
    const file = join(root, 'avro', `${Schemas.Outlinks}.avsc`);
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.fields.push({ name: 'extra', type: ['null', 'string'], default: null });
    writeFileSync(file, JSON.stringify(schema));
    expect(() => SchemaRegistry.load(root)).toThrow(/not in schemas\/fingerprints.json/);
  });

  it('reads v1 bytes with a v2 that added a defaulted field and dropped one', () => {
    const root = copySchemas();
    evolve(root, Schemas.Outlinks, (schema) => {
      schema.fields = schema.fields.filter((field) => (field as { name: string }).name !== 'sourceUrlId');
      schema.fields.push({ name: 'language', type: ['null', 'string'], default: null, doc: 'added in v2' });
    });
    const v2 = new Codec(SchemaRegistry.load(root));
    const v1Bytes = readFileSync(join(samplesDir, `${Schemas.Outlinks}.v1.bin`));
    const decoded = v2.decodeWithSchema<Record<string, unknown>>(v1Bytes, Schemas.Outlinks);
    expect(decoded.writer.version).toBe(1);
    expect(decoded.reader.version).toBe(2);
    expect(decoded.value.language).toBeNull();
    expect(decoded.value).not.toHaveProperty('sourceUrlId');
    expect(decoded.value.sourceUrl).toBe(sampleMessages[Schemas.Outlinks].sourceUrl);
    expect(v2.registry.backwardCompatibilityProblems()).toEqual([]);
  });

  it('reports a v2 that old bytes cannot be read with (new field without default)', () => {
    const root = copySchemas();
    evolve(root, Schemas.Outlinks, (schema) => {
      schema.fields.push({ name: 'mandatory', type: 'string' });
    });
    const problems = SchemaRegistry.load(root).backwardCompatibilityProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/crawler.Outlinks v2 cannot read v1/);
  });
});

