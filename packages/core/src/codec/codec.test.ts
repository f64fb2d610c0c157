import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterEach, describe, expect, it } from 'vitest';
import { CodecError } from '../errors.js';
import { Schemas, type FetchMeta, type Link, type Outlinks } from '../messages.js';
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
      expect(files, `missing sample for ${version.name} v${version.version}; run npm run schemas:samples`).toContain(
        `${version.name}.v${version.version}.bin`,
      );
    }
    for (const file of files) {
      const name = file.replace(/\.v\d+\.bin$/, '');
      const decoded = codec.decode<Record<string, unknown>>(readFileSync(join(samplesDir, file)), name);
      const expected = JSON.parse(readFileSync(join(samplesDir, file.replace(/\.bin$/, '.json')), 'utf8'), (_, v) =>
        v && typeof v === 'object' && 'base64' in v ? Buffer.from(v.base64, 'base64') : v,
      );
      // A subset match: a field added later with a default (in a nested record too) decodes as its default.
      for (const [field, value] of Object.entries(expected))
        expect({ [field]: decoded[field] }, `${file}: ${field}`).toMatchObject({ [field]: value });
    }
  });

  it('rejects each saved invalid sample with its expected error code', () => {
    const expected = JSON.parse(readFileSync(join(samplesDir, 'invalid', 'expected.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(5);
    for (const [file, code] of Object.entries(expected)) {
      expect(
        codeOf(() => codec.decode(readFileSync(join(samplesDir, 'invalid', file)))),
        file,
      ).toBe(code);
    }
  });

  it('writes the same bytes as header + avsc toBuffer, for values under and over its 64 KiB scratch space', () => {
    const outlinks = sampleMessages[Schemas.Outlinks];
    const link = outlinks.links[0]!;
    for (const count of [1, 50, 2000]) {
      const value: Outlinks = {
        ...outlinks,
        links: Array.from({ length: count }, (_, i) => ({ ...link, url: `${link.url}?page=${i}` })),
      };
      const schema = codec.registry.current(Schemas.Outlinks);
      const bytes = codec.encode(Schemas.Outlinks, value);
      expect(bytes.subarray(10)).toEqual(schema.type.toBuffer(value));
      expect(codec.decode(bytes, Schemas.Outlinks)).toEqual(value);
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

  it('reads links written before the sitemap hints with null lastmod and changefreq (Outlinks, ParsedPage, StoredPage v1 -> current)', () => {
    for (const name of [Schemas.Outlinks, Schemas.ParsedPage, Schemas.StoredPage]) {
      const decoded = codec.decodeWithSchema<{ links: Link[] }>(readFileSync(join(samplesDir, `${name}.v1.bin`)), name);
      expect([decoded.writer.version, decoded.reader.version], name).toEqual([1, codec.registry.current(name).version]);
      expect(decoded.value.links.length, name).toBeGreaterThan(0);
      for (const link of decoded.value.links)
        expect([link.lastmod, link.changefreq], `${name} ${link.url}`).toEqual([null, null]);
    }
    const v2 = codec.decodeWithSchema<Outlinks>(
      readFileSync(join(samplesDir, `${Schemas.Outlinks}.v2.bin`)),
      Schemas.Outlinks,
    );
    expect(v2.writer.version).toBe(2);
    expect(v2.value.links.find((link) => link.source === 'sitemap')).toMatchObject({
      lastmod: 1_789_900_000_000,
      changefreq: 'daily',
    });
  });

  it('reads pages written before the Markdown with a null markdown (ParsedPage, StoredPage v2 -> current)', () => {
    for (const name of [Schemas.ParsedPage, Schemas.StoredPage]) {
      const decoded = codec.decodeWithSchema<{ text: string; markdown: string | null }>(
        readFileSync(join(samplesDir, `${name}.v2.bin`)),
        name,
      );
      expect(decoded.writer.version, name).toBe(2);
      expect(decoded.value, name).toMatchObject({ text: 'Seven A', markdown: null });
      const current = codec.decode<{ markdown: string | null }>(codec.encode(name, sampleMessages[name]));
      expect(current.markdown, name).toBe(sampleMessages[name].markdown);
    }
  });

  it('reads fetches written before the request headers with none (FetchResult v1, ParsedPage and StoredPage v3)', () => {
    for (const [name, version] of [
      [Schemas.FetchResult, 1],
      [Schemas.ParsedPage, 3],
      [Schemas.StoredPage, 3],
    ] as const) {
      const old = codec.decodeWithSchema<FetchMeta>(readFileSync(join(samplesDir, `${name}.v${version}.bin`)), name);
      expect(old.value.requestHeaders, name).toEqual({});
      const next = codec.decodeWithSchema<FetchMeta>(
        readFileSync(join(samplesDir, `${name}.v${version + 1}.bin`)),
        name,
      );
      expect(next.value.requestHeaders['user-agent'], name).toMatch(/^crawler\//);
    }
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

  /** Moves the current schema (version N) to history as vN and writes a changed vN+1, pinned in the lock file; returns N. */
  function evolve(root: string, name: string, change: (schema: { fields: object[] }) => void): number {
    const current = join(root, 'avro', `${name}.avsc`);
    const schema = JSON.parse(readFileSync(current, 'utf8'));
    const version = codec.registry.current(name).version;
    cpSync(current, join(root, 'history', `${name}.v${version}.avsc`));
    change(schema);
    writeFileSync(current, JSON.stringify(schema));
    const lock = JSON.parse(readFileSync(join(root, 'fingerprints.json'), 'utf8'));
    const fingerprint = rabinFingerprint(JSON.stringify(avro.Type.forSchema(schema).schema()))
      .toString(16)
      .padStart(16, '0');
    lock[name].push({ version: version + 1, fingerprint });
    writeFileSync(join(root, 'fingerprints.json'), JSON.stringify(lock));
    return version;
  }

  it('refuses a schema edited without a version bump', () => {
    const root = copySchemas();
    const file = join(root, 'avro', `${Schemas.Outlinks}.avsc`);
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    schema.fields.push({ name: 'extra', type: ['null', 'string'], default: null });
    writeFileSync(file, JSON.stringify(schema));
    expect(() => SchemaRegistry.load(root)).toThrow(/not in schemas\/fingerprints.json/);
  });

  it('reads vN bytes with a vN+1 that added a defaulted field and dropped one', () => {
    const root = copySchemas();
    const n = evolve(root, Schemas.Outlinks, (schema) => {
      schema.fields = schema.fields.filter((field) => (field as { name: string }).name !== 'sourceUrlId');
      schema.fields.push({ name: 'language', type: ['null', 'string'], default: null, doc: 'added in vN+1' });
    });
    const v2 = new Codec(SchemaRegistry.load(root));
    const v1Bytes = readFileSync(join(samplesDir, `${Schemas.Outlinks}.v${n}.bin`));
    const decoded = v2.decodeWithSchema<Record<string, unknown>>(v1Bytes, Schemas.Outlinks);
    expect(decoded.writer.version).toBe(n);
    expect(decoded.reader.version).toBe(n + 1);
    expect(decoded.value.language).toBeNull();
    expect(decoded.value).not.toHaveProperty('sourceUrlId');
    expect(decoded.value.sourceUrl).toBe(sampleMessages[Schemas.Outlinks].sourceUrl);
    expect(v2.registry.backwardCompatibilityProblems()).toEqual([]);
  });

  it('reports a vN+1 that old bytes cannot be read with (new field without default)', () => {
    const root = copySchemas();
    const n = evolve(root, Schemas.Outlinks, (schema) => {
      schema.fields.push({ name: 'mandatory', type: 'string' });
    });
    const problems = SchemaRegistry.load(root).backwardCompatibilityProblems();
    // Every older version is unreadable now: vN and each version before it.
    expect(problems).toHaveLength(n);
    for (let version = 1; version <= n; version++)
      expect(problems.join('\n')).toMatch(new RegExp(`crawler.Outlinks v${n + 1} cannot read v${version}:`));
  });
});
