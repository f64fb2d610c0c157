import { Codec, CodecError, Schemas, silentLogger, type StoredPage } from '@crawler/core';
import { sampleMessages } from '@crawler/core/testing';
import { describe, expect, it } from 'vitest';
import { RegistryFraming } from './registry-framing.js';
import { SchemaRegistryError, type SchemaRegistryClient } from './schema-registry-client.js';

const codec = new Codec();
const page = codec.encode(Schemas.StoredPage, sampleMessages[Schemas.StoredPage]);

/** A registry in memory with the semantics the crawler relies on: content ids, BACKWARD refusals. */
function fakeRegistry(options: { refuse?: (schema: string) => boolean; down?: boolean } = {}) {
  const ids = new Map<string, number>();
  const subjects = new Map<string, string[]>();
  const calls: string[] = [];
  const client: SchemaRegistryClient = {
    async register(subject, schema) {
      calls.push(`register ${subject}`);
      if (options.down) throw new SchemaRegistryError('SCHEMA_REGISTRY_UNAVAILABLE', 'down');
      const versions = subjects.get(subject) ?? [];
      if (!versions.includes(schema)) {
        if (versions.length > 0 && options.refuse?.(schema))
          throw new SchemaRegistryError('SCHEMA_INCOMPATIBLE', 'HTTP 409 Incompatible artifact');
        subjects.set(subject, [...versions, schema]);
      }
      if (!ids.has(schema)) ids.set(schema, ids.size + 1);
      return ids.get(schema)!;
    },
    async lookup(subject, schema) {
      calls.push(`lookup ${subject}`);
      return subjects.get(subject)?.includes(schema) ? ids.get(schema)! : null;
    },
    async setCompatibility(subject) {
      calls.push(`config ${subject}`);
    },
    async schemaById(id) {
      calls.push(`schema ${id}`);
      const schema = [...ids].find(([, value]) => value === id)?.[0];
      if (!schema) throw new SchemaRegistryError('SCHEMA_REGISTRY_REFUSED', `no schema ${id}`);
      return schema;
    },
  };
  return { client, calls, subjects };
}

describe('RegistryFraming', () => {
  it('registers every version oldest first, and sets BACKWARD once the subject exists', async () => {
    const registry = fakeRegistry();
    await new RegistryFraming(registry.client, silentLogger()).register([
      { topic: 'crawl.pages', schema: Schemas.StoredPage },
    ]);
    const versions = codec.registry.versionsOf(Schemas.StoredPage);
    expect(registry.calls).toEqual([
      'register crawl.pages-value',
      'config crawl.pages-value',
      ...versions.slice(1).map(() => 'register crawl.pages-value'),
    ]);
    expect(registry.subjects.get('crawl.pages-value')).toEqual(versions.map((version) => version.definition));
  });

  it('swaps the single-object header for byte 0 and the schema id, and back, leaving the body alone', async () => {
    const registry = fakeRegistry();
    const framing = new RegistryFraming(registry.client, silentLogger());
    await framing.register([{ topic: 'crawl.pages', schema: Schemas.StoredPage }]);
    const wire = await framing.toWire('crawl.pages', page);
    expect(wire[0]).toBe(0);
    expect(wire.subarray(5)).toEqual(page.subarray(10));
    expect(await framing.fromWire(wire)).toEqual(page);
    expect(await framing.fromWire(page)).toBe(page);
  });

  it('a reader that registered nothing asks the registry for an id once, and decodes', async () => {
    const registry = fakeRegistry();
    const writer = new RegistryFraming(registry.client, silentLogger());
    await writer.register([{ topic: 'crawl.pages', schema: Schemas.StoredPage }]);
    const wire = await writer.toWire('crawl.pages', page);
    const reader = new RegistryFraming(registry.client, silentLogger());
    registry.calls.length = 0;
    const [first, second] = await Promise.all([reader.fromWire(wire), reader.fromWire(wire)]);
    expect(codec.decode<StoredPage>(first!).url).toBe(sampleMessages[Schemas.StoredPage].url);
    expect(second).toEqual(first);
    expect(registry.calls).toEqual([`schema ${wire.readInt32BE(1)}`]);
  });

  it('an operator tool asks whether a subject holds the schema: not registered, the message stays single-object', async () => {
    const registry = fakeRegistry();
    await new RegistryFraming(registry.client, silentLogger()).register([
      { topic: 'crawl.pages', schema: Schemas.StoredPage },
    ]);
    const tool = new RegistryFraming(registry.client, silentLogger());
    expect(await tool.toWire('other.crawl.pages', page)).toBe(page);
    expect((await tool.toWire('crawl.pages', page))[0]).toBe(0);
  });

  it('an id no schema in schemas/ matches stays as it is, and the codec names the setting', async () => {
    const framing = new RegistryFraming(fakeRegistry().client, silentLogger());
    const unknown = Buffer.concat([Buffer.from([0, 0, 0, 0, 99]), page.subarray(10)]);
    expect(await framing.fromWire(unknown)).toBe(unknown);
    expect(() => codec.decode(unknown)).toThrow(CodecError);
    expect(() => codec.decode(unknown)).toThrow(/schema id 99 .*SCHEMA_REGISTRY_URL/);
  });

  it('refuses a version the registry finds incompatible, naming the file and the subject', async () => {
    const current = codec.registry.current(Schemas.StoredPage).definition;
    const registry = fakeRegistry({ refuse: (schema) => schema === current });
    const framing = new RegistryFraming(registry.client, silentLogger());
    const refused = framing.register([{ topic: 'crawl.pages', schema: Schemas.StoredPage }]);
    await expect(refused).rejects.toMatchObject({ code: 'SCHEMA_INCOMPATIBLE', retriable: false });
    await expect(refused).rejects.toThrow(
      /crawler\.StoredPage v\d+ \(schemas\/avro\/crawler\.StoredPage\.avsc\) is not BACKWARD compatible .* crawl\.pages-value/,
    );
  });
});
