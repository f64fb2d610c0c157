// Measures the Elasticsearch link base against a running cluster; prints figures, asserts nothing.
//   npx tsc -b packages/elasticsearch && node packages/elasticsearch/scripts/bench-linkbase.mjs
// Environment: ELASTICSEARCH_URL (default the local stack, http://127.0.0.1:19200), BENCH_INSERT (records
// for the insert comparison, default 50000), BENCH_SIZES (link base sizes for findDue+lease, default 10000,100000),
// BENCH_ROUNDS (findDue+lease rounds, default 20, fewer when the link base would run dry), BENCH_REPEAT (insert
// runs, default 3). Every index it creates is deleted by name at the end.
import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { createLinkRecord, silentLogger } from '@crawler/core';
import {
  createElasticsearchLinkBase,
  deleteLinkBase,
  linkIndexTemplate,
  loadElasticsearchConfig,
} from '../dist/index.js';

const url = process.env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:19200';
const insertCount = Number(process.env.BENCH_INSERT ?? 50_000);
const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
const client = new Client({ node: url });
const created = [];

function config(overrides = {}) {
  const index = `crawler-links-bench-${randomUUID().slice(0, 8)}`;
  created.push(index);
  return loadElasticsearchConfig({ env: {}, overrides: { url, index, ...overrides } });
}

function records(count, hosts, now) {
  return Array.from({ length: count }, (_, i) =>
    createLinkRecord(`http://h${i % hosts}.bench.test/p/${i}`, {
      depth: i % 6,
      nextFetchAt: now - 1000,
      discoveredAt: now - 1000,
      anchors: [`anchor ${i}`],
    }),
  );
}

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const pct = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];
const fmt = (value) => value.toFixed(1);

/** A fresh index from the link base template, for the bare client to write into. */
async function bareIndex() {
  const bare = config();
  await client.indices.putIndexTemplate(linkIndexTemplate(bare));
  await client.indices.create({ index: bare.index });
  return bare.index;
}

async function bareBulk(docs, concurrency) {
  const index = await bareIndex();
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < docs.length) {
        const part = docs.slice(next, (next += 1000));
        const response = await client.bulk({
          index,
          operations: part.flatMap((doc) => [{ create: { _id: doc.id } }, doc]),
        });
        if (response.errors) throw new Error('bare bulk had item errors');
      }
    }),
  );
  return docs.length / (ms(start) / 1000);
}

async function adapterInsert(docs) {
  const linkbase = await createElasticsearchLinkBase(config(), silentLogger());
  let start = process.hrtime.bigint();
  let inserted = 0;
  for (let i = 0; i < docs.length; i += 10_000)
    inserted += (await linkbase.insertNew(docs.slice(i, i + 10_000))).length;
  const fresh = docs.length / (ms(start) / 1000);
  if (inserted !== docs.length) throw new Error(`inserted ${inserted} of ${docs.length}`);
  // Every record known already: the price of a flood of re-discovered links.
  start = process.hrtime.bigint();
  for (let i = 0; i < docs.length; i += 10_000) await linkbase.insertNew(docs.slice(i, i + 10_000));
  const known = docs.length / (ms(start) / 1000);
  await linkbase.close();
  return { fresh, known };
}

/** Runs alternate, so a busy neighbour on the machine slows all of them alike; medians are printed. */
async function insertComparison() {
  const docs = records(insertCount, 500, Date.now());
  const runs = { bare1: [], bare2: [], fresh: [], known: [] };
  for (let i = 0; i < repeat; i++) {
    runs.bare1.push(await bareBulk(docs, 1));
    runs.bare2.push(await bareBulk(docs, 2));
    const adapter = await adapterInsert(docs);
    runs.fresh.push(adapter.fresh);
    runs.known.push(adapter.known);
  }
  const show = (values) => `${Math.round(pct(values, 50))} docs/s (runs: ${values.map(Math.round).join(', ')})`;
  console.log(`insert ${docs.length} records, median of ${repeat}`);
  console.log(`  bare client.bulk, 1000 per request, 1 at a time:   ${show(runs.bare1)}`);
  console.log(`  bare client.bulk, 1000 per request, 2 at a time:   ${show(runs.bare2)}`);
  console.log(`  linkbase.insertNew, 10000 per call:                 ${show(runs.fresh)}`);
  console.log(`  linkbase.insertNew again, every record known (409): ${show(runs.known)}`);
}

/**
 * Back-to-back findDue + lease rounds, as the frontier emitter runs them when every round is full.
 * With the default pacing a round includes the wait for the refresh interval; with pacing 0 the
 * refresh is made explicitly first (flush), so its cost shows apart from the search.
 */
async function leaseRounds(size, refreshMinIntervalMs) {
  const now = Date.now();
  const hosts = Math.max(1, Math.round(size / 100));
  const linkbase = await createElasticsearchLinkBase(config({ refreshMinIntervalMs }), silentLogger());
  for (const part of chunks(records(size, hosts, now), 10_000)) await linkbase.insertNew(part);
  await linkbase.flush();
  const times = { round: [], refresh: [], findDue: [], lease: [] };
  let leasedTotal = 0;
  // Every round leases 1000, so a small link base runs dry: only rounds that find a full batch count.
  const count = Math.min(rounds, Math.floor(size / 1000));
  for (let round = 0; round < count; round++) {
    const start = process.hrtime.bigint();
    if (refreshMinIntervalMs === 0) {
      await linkbase.flush();
      times.refresh.push(ms(start));
    }
    const findStart = process.hrtime.bigint();
    const due = await linkbase.findDue({ now, limit: 1000, perQueueLimit: 20 });
    times.findDue.push(ms(findStart));
    const leaseStart = process.hrtime.bigint();
    const leased = await linkbase.lease(
      due.map((record) => record.id),
      now + 600_000,
      now,
    );
    times.lease.push(ms(leaseStart));
    times.round.push(ms(start));
    leasedTotal += leased.length;
  }
  await linkbase.close();
  const shown = Object.entries(times)
    .filter(([, values]) => values.length > 0)
    .map(([name, values]) => `${name} ${fmt(pct(values, 50))} / ${fmt(pct(values, 95))}`);
  console.log(
    `findDue(limit 1000, perQueue 20) + lease: ${size} records on ${hosts} hosts, refresh pacing ${refreshMinIntervalMs} ms, ${count} rounds, ${leasedTotal} leased`,
  );
  console.log(
    `  median / p95 ms: ${shown.join('; ')}${refreshMinIntervalMs === 0 ? '' : ' (findDue includes the refresh and the wait for it)'}`,
  );
}

function chunks(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

try {
  await insertComparison();
  for (const size of sizes) for (const pacing of [250, 0]) await leaseRounds(size, pacing);
} finally {
  for (const index of created) await deleteLinkBase(client, index);
  await client.close();
}
