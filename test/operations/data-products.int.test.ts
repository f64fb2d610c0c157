import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import avro from 'avsc';
import {
  canonicalUrl,
  Codec,
  fingerprintHex,
  loadCatalog,
  rabinFingerprint,
  Schemas,
  schemasDir,
  silentLogger,
  Topics,
  type LinkBase,
  type Outlinks,
} from '@crawler/core';
import { waitFor } from '@crawler/core/testing';
import { createElasticsearchLinkBase, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { createKafkaBus, loadKafkaConfig } from '@crawler/kafka';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../reliability/support/stack-env.js';
import { createScratchDir, removeScratchDir } from '../support/scratch-dir.js';
import { startServiceProcess, waitUntilReady, type ServiceProcess } from '../support/service-processes.js';
import { TEST_WEB_SERVICE_ENV } from '../support/test-web-service-env.js';
import { docCodeBlock } from './doc-code-blocks.js';
import { runJavaReader } from './java-reader.js';

const execute = promisify(execFile);
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:18081/apis/ccompat/v6';
/** Apicurio's own API, which its Kafka Connect converter speaks. */
const registryApi = `${registryUrl.replace(/\/apis\/ccompat\/v\d+\/?$/, '')}/apis/registry/v2`;
const collectorUrl = process.env.OTEL_COLLECTOR_URL ?? 'http://127.0.0.1:14318';
const tracesDir = join(process.env.CRAWLER_STACK_DIR ?? join(repoRoot, '.stack'), 'otel-collector', 'traces');

interface PythonRecord {
  partition: number;
  offset: number;
  framing: 'registry' | 'single-object';
  headers: Record<string, string>;
  value: Record<string, unknown>;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  attributes: Record<string, unknown>;
}

/**
 * A crawl of the four services as processes, on the stack with the schema registry and tracing
 * on, read the way a data team reads it: Python (confluent-kafka's AvroDeserializer), Java, Kafka
 * Connect with a registry-aware converter, the registry's API, the OpenTelemetry Collector's
 * traces and HBase. The programs come from docs/DATA.md as printed.
 */
describe('the crawl as a data team reads it', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `data-${run}.`;
  const env: NodeJS.ProcessEnv = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092',
    ELASTICSEARCH_URL: process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:16379',
    HBASE_REST_URL: process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080',
    SCHEMA_REGISTRY_URL: registryUrl,
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    CRAWLER_TOPIC_PREFIX: prefix,
    ELASTICSEARCH_INDEX: `crawler-data-${run}`,
    HBASE_TABLE: `crawler_data_${run}`,
    REDIS_KEY_PREFIX: `crawler-data-${run}:`,
    ...TEST_WEB_SERVICE_ENV,
    LOG_LEVEL: 'info',
  };
  const plainBus = createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: env.KAFKA_BROKERS } }), silentLogger());
  let web: TestWeb;
  let dir: string;
  let linkbase: LinkBase;
  const services: ServiceProcess[] = [];
  /** Records per topic (unprefixed name) once the crawl settled. */
  const counts = new Map<string, number>();

  async function recordsIn(topic: string): Promise<number> {
    const partitions = await plainBus.lag(`count-${run}`, [prefix + topic]);
    return partitions.reduce((sum, partition) => sum + partition.end, 0);
  }

  async function python(topic: string, count: number): Promise<PythonRecord[]> {
    const { stdout } = await execute(
      'python3',
      [join(dir, 'read_crawl_topic.py'), env.KAFKA_BROKERS!, prefix + topic, schemasDir(), String(count), registryUrl],
      { timeout: 120_000, maxBuffer: 256 * 1024 * 1024 },
    );
    return stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PythonRecord);
  }

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'bench', hosts: 2, pagesPerHost: 12, linksPerPage: 3 });
    dir = createScratchDir('data-products');
    writeFileSync(join(dir, 'read_crawl_topic.py'), docCodeBlock('### Python', 'python'));
    const jobId = `data-${run}`;
    const [first, ...later] = web.seeds;
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ id: jobId, seeds: [first], maxDepth: 3 }));
    env.CRAWL_JOB_FILE = join(dir, 'job.json');
    // The other seeds as a crawl without a registry wrote them: single-object encoded, before the switch.
    await plainBus.createTopics(loadCatalog().topics.map((topic) => ({ ...topic, name: prefix + topic.name })));
    const seeds: Outlinks = {
      kind: 'seed',
      sourceUrl: null,
      sourceUrlId: null,
      jobId,
      traceId: randomUUID(),
      depth: 0,
      discoveredAt: Date.now(),
      links: later.map((url) => ({ url, anchor: null, rel: null, source: 'seed', lastmod: null, changefreq: null })),
    };
    const producer = plainBus.producer();
    await producer.send(prefix + Topics.links, [{ key: null, value: new Codec().encode(Schemas.Outlinks, seeds) }]);
    await producer.close();

    for (const service of ['dedup', 'linkextract', 'fetcher'] as const)
      services.push(await startServiceProcess(service, service, env, dir));
    await Promise.all(services.map((service) => waitUntilReady(service)));
    services.push(await startServiceProcess('scheduler', 'scheduler', env, dir));
    linkbase = await createElasticsearchLinkBase(loadElasticsearchConfig({ env }), silentLogger());

    let quiet = 0;
    await waitFor(
      async () => {
        await linkbase.flush();
        const stats = await linkbase.stats(Date.now());
        const pending = (stats.byStatus.queued ?? 0) + (stats.byStatus.retry ?? 0);
        let lag = 0;
        for (const group of loadCatalog().consumerGroups)
          for (const partition of await plainBus.lag(
            prefix + group.group,
            group.topics.map((topic) => prefix + topic),
          ))
            lag += Math.max(partition.lag, 0);
        quiet = stats.total > later.length && pending === 0 && stats.leased === 0 && lag === 0 ? quiet + 1 : 0;
        return quiet >= 3;
      },
      180_000,
      1000,
      () => `the crawl to finish (idle three checks running); scheduler log:\n${services[3]!.logTail()}`,
    );
    for (const topic of Object.values(Topics)) counts.set(topic, await recordsIn(topic));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all([plainBus.close(), linkbase?.close()]);
    await web?.close();
    removeScratchDir(dir);
  });

  it("confluent-kafka's AvroDeserializer reads crawl.pages and crawl.status through the registry", async () => {
    const pages = await python(Topics.pages, counts.get(Topics.pages)!);
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.length).toBe(counts.get(Topics.pages));
    expect(new Set(pages.map((record) => record.framing))).toEqual(new Set(['registry']));
    // Every page is HTML: each carries its main content as Markdown too, the same words as its text.
    for (const record of pages)
      expect(record.value.markdown, record.value.url as string).toContain((record.value.text as string).slice(0, 60));
    const fetched = new Set<string>();
    const seeds = new Set<string>();
    for await (const record of linkbase.scan()) {
      if (record.status === 'fetched') fetched.add(record.url);
      if (record.depth === 0) seeds.add(record.url);
    }
    expect(new Set(pages.map((record) => record.value.url))).toEqual(fetched);
    // The seeds written before the switch, single-object encoded, were read too.
    expect(seeds).toEqual(new Set(web.seeds.map((seed) => canonicalUrl(seed))));

    const statuses = await python(Topics.status, counts.get(Topics.status)!);
    expect(statuses.length).toBe(counts.get(Topics.status));
    expect(new Set(statuses.map((record) => record.framing))).toEqual(new Set(['registry']));
    expect(statuses.filter((record) => record.value.change === 'new').length).toBe(pages.length);
  }, 180_000);

  it('the Python reader decodes every topic that holds records, in either framing', async () => {
    const framings = new Map<string, Set<string>>();
    for (const [topic, count] of counts) {
      if (count === 0) continue;
      const records = await python(topic, count);
      expect(records, topic).toHaveLength(count);
      framings.set(topic, new Set(records.map((record) => record.framing)));
    }
    expect([...framings.keys()]).toEqual(
      expect.arrayContaining([
        Topics.frontier,
        Topics.fetched,
        Topics.parsed,
        Topics.status,
        Topics.links,
        Topics.pages,
      ]),
    );
    expect(framings.get(Topics.links)).toEqual(new Set(['single-object', 'registry']));
  }, 240_000);

  it('the Java reader decodes registry-framed pages with the schema the registry returns for their id', async () => {
    const count = counts.get(Topics.pages)!;
    const lines = await runJavaReader(dir, [
      env.KAFKA_BROKERS!,
      prefix + Topics.pages,
      Schemas.StoredPage,
      schemasDir(),
      String(count),
      registryUrl,
    ]);
    expect(lines).toHaveLength(count);
    for (const line of lines) expect(line).toMatch(/^\d+\/\d+ registry id \d+ http:\/\/\S+ trace [0-9a-f]{32}$/);
  }, 420_000);

  it('Kafka Connect with a registry-aware Avro converter lands crawl.pages in a file sink as JSON', async () => {
    const { stdout: libs } = await execute('bash', [join(repoRoot, 'deploy/local/stack.sh'), 'connect-classpath'], {
      timeout: 300_000,
    });
    const out = join(dir, 'crawl-pages.jsonl');
    const worker = docCodeBlock('### Kafka Connect', 'properties')
      .replace('bootstrap.servers=127.0.0.1:19092', `bootstrap.servers=${env.KAFKA_BROKERS}`)
      .replace(/apicurio\.registry\.url=.*/, `apicurio.registry.url=${registryApi}`)
      .replace('/tmp/connect.offsets', join(dir, 'connect.offsets'));
    const sink = docCodeBlock('#### The file sink', 'properties')
      .replace('topics=crawl.pages', `topics=${prefix}${Topics.pages}`)
      .replace('file=/tmp/crawl-pages.jsonl', `file=${out}`);
    writeFileSync(join(dir, 'worker.properties'), worker);
    writeFileSync(join(dir, 'crawl-pages-to-file.properties'), sink);
    const connect = spawn(
      'java',
      [
        '-cp',
        `${libs.trim()}/*`,
        'org.apache.kafka.connect.cli.ConnectStandalone',
        join(dir, 'worker.properties'),
        join(dir, 'crawl-pages-to-file.properties'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    connect.stderr.on('data', (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-20_000)));
    const count = counts.get(Topics.pages)!;
    const lines = () => (existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n').filter(Boolean) : []);
    try {
      await waitFor(() => lines().length >= count || connect.exitCode !== null, 90_000, 250);
    } finally {
      connect.kill('SIGTERM');
    }
    expect(lines(), log).toHaveLength(count);
    const pages = lines().map((line) => JSON.parse(line) as { url: string; body: string; change: string });
    const fromPython = await python(Topics.pages, count);
    expect(new Set(pages.map((page) => page.url))).toEqual(new Set(fromPython.map((record) => record.value.url)));
    expect(pages.every((page) => page.change === 'new' && typeof page.body === 'string')).toBe(true);
  }, 420_000);

  it('every stage a page went through is a span of one trace, chained through the Kafka headers', async () => {
    const [page] = await python(Topics.pages, 1);
    const traceId = page!.value.traceId as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(page!.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const expected = ['schedule', 'fetcher', 'GET', 'linkextract', 'dedup', 'page-store put'];
    const spans = await waitFor(
      () => {
        const found = spansOf(traceId);
        return expected.every((name) => found.some((span) => span.name === name)) ? found : null;
      },
      30_000,
      250,
    );
    const one = (name: string) => {
      const matching = spans!.filter((span) => span.name === name);
      expect(matching, name).toHaveLength(1);
      return matching[0]!;
    };
    const schedule = one('schedule');
    const fetcher = one('fetcher');
    const hop = one('GET');
    const linkextract = one('linkextract');
    const dedup = one('dedup');
    const store = one('page-store put');
    expect(schedule.parentSpanId ?? '').toBe('');
    expect(fetcher.parentSpanId).toBe(schedule.spanId);
    expect(hop.parentSpanId).toBe(fetcher.spanId);
    expect(linkextract.parentSpanId).toBe(fetcher.spanId);
    expect(dedup.parentSpanId).toBe(linkextract.spanId);
    expect(store.parentSpanId).toBe(dedup.spanId);
    expect([schedule, fetcher, linkextract, dedup, store].map((span) => span.service)).toEqual([
      'crawler-scheduler',
      'crawler-fetcher',
      'crawler-linkextract',
      'crawler-dedup',
      'crawler-dedup',
    ]);
    const url = page!.value.url;
    for (const span of [schedule, fetcher, hop, linkextract, dedup]) expect(span.attributes['url.full']).toBe(url);
    expect(fetcher.attributes).toMatchObject({ 'crawler.outcome': 'ok', 'http.response.status_code': 200 });
    expect(hop.attributes).toMatchObject({ 'http.response.status_code': 200, 'crawler.hop': 0 });
    expect(typeof linkextract.attributes['crawler.links']).toBe('number');
    expect(dedup.attributes).toMatchObject({
      'crawler.outcome': 'ok',
      'crawler.change': 'new',
      'crawler.stored': true,
    });
  }, 60_000);

  it('the HBase reader prints the stored page, its cells and their encoding bytes', async () => {
    writeFileSync(join(dir, 'read_hbase_page.py'), docCodeBlock('## A page in HBase', 'python'));
    const [page] = await python(Topics.pages, 1);
    const { stdout } = await execute(
      'python3',
      [join(dir, 'read_hbase_page.py'), env.HBASE_REST_URL!, env.HBASE_TABLE!, page!.value.url as string],
      { timeout: 60_000 },
    );
    const [version] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(version).toMatchObject({
      url: page!.value.url,
      httpStatus: 200,
      change: 'new',
      encoding: {
        body: expect.stringMatching(/^0[01]$/),
        headers: '00',
        markdown: expect.stringMatching(/^0[01]$/),
        meta: expect.stringMatching(/^0[01]$/),
      },
    });
    expect(version!.markdown).toBe((page!.value.markdown as string).slice(0, 60));
    expect(version!.bodyBytes).toBe(page!.value.bodyLength);
  }, 60_000);

  it('a schema change the registry finds incompatible stops a service at start, naming the schema and the subject', async () => {
    const schemas = incompatibleStoredPage(join(dir, 'schemas'));
    const service = await startServiceProcess(
      'linkextract',
      'linkextract-incompatible',
      { ...env, CRAWLER_SCHEMAS_DIR: schemas.dir },
      dir,
    );
    expect(await service.exited).toBe(1);
    const log = readFileSync(service.logFile, 'utf8');
    expect(log).toContain(
      `crawler.StoredPage v${schemas.version} (schemas/avro/crawler.StoredPage.avsc) is not BACKWARD compatible with the latest version the schema registry holds for ${prefix}crawl.pages-value`,
    );
  }, 60_000);

  /** The spans of one trace the collector wrote, with their service names. */
  function spansOf(traceId: string): OtlpSpan[] {
    const spans: OtlpSpan[] = [];
    for (const file of existsSync(tracesDir) ? readdirSync(tracesDir) : []) {
      for (const line of readFileSync(join(tracesDir, file), 'utf8').split('\n')) {
        if (!line.includes(traceId)) continue;
        const batch = JSON.parse(line) as { resourceSpans: OtlpResourceSpans[] };
        for (const resource of batch.resourceSpans) {
          const service = String(attributesOf(resource.resource.attributes)['service.name']);
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              if (span.traceId === traceId) spans.push({ ...span, service, attributes: attributesOf(span.attributes) });
        }
      }
    }
    return spans;
  }
});

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
}

interface OtlpResourceSpans {
  resource: { attributes: OtlpAttribute[] };
  scopeSpans: { spans: (Omit<OtlpSpan, 'service' | 'attributes'> & { attributes?: OtlpAttribute[] })[] }[];
}

/** OTLP JSON attributes as plain values (int64 arrives as a string). */
function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue)),
    ]),
  );
}

/**
 * A copy of schemas/ whose StoredPage gains a field without a default: new readers could not read
 * the pages already written, which is what BACKWARD compatibility forbids. Pinned as the next version.
 */
function incompatibleStoredPage(target: string): { dir: string; version: number } {
  cpSync(schemasDir(), target, { recursive: true });
  const lock = JSON.parse(readFileSync(join(target, 'fingerprints.json'), 'utf8')) as Record<
    string,
    { version: number; fingerprint: string }[]
  >;
  const versions = lock[Schemas.StoredPage]!;
  const latest = versions[versions.length - 1]!.version;
  const current = join(target, 'avro', 'crawler.StoredPage.avsc');
  const schema = JSON.parse(readFileSync(current, 'utf8')) as { fields: unknown[] };
  renameSync(current, join(target, 'history', `crawler.StoredPage.v${latest}.avsc`));
  schema.fields.push({ name: 'crawlRegion', type: 'string' });
  writeFileSync(current, JSON.stringify(schema, null, 2));
  const fingerprint = fingerprintHex(
    rabinFingerprint(JSON.stringify(avro.Type.forSchema(schema as avro.Schema).schema())),
  );
  versions.push({ version: latest + 1, fingerprint });
  writeFileSync(join(target, 'fingerprints.json'), JSON.stringify(lock, null, 2));
  return { dir: target, version: latest + 1 };
}
