import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from './codec/schemas-dir.js';

export interface TopicSpec {
  name: string;
  key: string;
  value: string;
  partitions: number;
  retentionMs: number;
  maxMessageBytes: number;
  producers: string[];
  consumers: string[];
}

export interface ConsumerGroupSpec {
  group: string;
  service: string;
  topics: string[];
}

export interface Catalog {
  topics: TopicSpec[];
  consumerGroups: ConsumerGroupSpec[];
}

/** Topic names as constants, checked against the catalog file by a test. */
export const Topics = {
  frontier: 'crawl.frontier',
  fetched: 'crawl.fetched',
  parsed: 'crawl.parsed',
  status: 'crawl.status',
  links: 'crawl.links',
  pages: 'crawl.pages',
  review: 'crawl.review',
  dlq: 'crawl.dlq',
} as const;
export type TopicName = (typeof Topics)[keyof typeof Topics];

let cached: { dir: string; catalog: Catalog; byName: Map<string, TopicSpec> } | undefined;

/** The single topic catalog in schemas/catalog.json: topics, keys, schemas, sizes, producers, consumers. */
export function loadCatalog(dir: string = schemasDir()): Catalog {
  return load(dir).catalog;
}

export function topicSpec(name: string, dir: string = schemasDir()): TopicSpec {
  const spec = load(dir).byName.get(name);
  if (!spec) throw new Error(`topic ${name} is not in schemas/catalog.json`);
  return spec;
}

function load(dir: string) {
  if (cached?.dir === dir) return cached;
  const raw = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as Catalog;
  const catalog: Catalog = { topics: raw.topics, consumerGroups: raw.consumerGroups };
  cached = { dir, catalog, byName: new Map(catalog.topics.map((topic) => [topic.name, topic])) };
  return cached;
}
