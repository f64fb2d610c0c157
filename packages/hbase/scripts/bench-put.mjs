// Pages stored per second, 4 KB pages in batches of 50: the page store's put beside a bare put of
// the same cells with its underlying client (fetch + JSON to the REST gateway) and, for reference,
// with hbase-rpc-client (native RPC through ZooKeeper). Uses the built package, so build first:
//   npx tsc -b packages/hbase && node packages/hbase/scripts/bench-put.mjs [--pages 2000] [--rounds 5] [--batch 50] [--in-flight 1,4]
// Each round runs every variant once, in a rotating order, so that load from other processes
// spreads over all of them; the median of the rounds is reported with the range.
// Servers: HBASE_REST_URL / HBASE_ZOOKEEPER_QUORUM, else the local stack (18080, 12181). A fresh table, dropped at the end.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { silentLogger } from '@crawler/core';
import hbase from 'hbase-rpc-client';
import { createHbasePageStore, pageRowKey } from '../dist/index.js';
import { encodePage, PAGE_FAMILY } from '../dist/page-cells.js';
import { cellSetJson } from '../dist/rest-client.js';
import { dropTable, localHbaseConfig, samplePage } from '../dist/testing/index.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    batch: { type: 'string', default: '50' },
    'in-flight': { type: 'string', default: '1,4' },
  },
});
const pageCount = Number(values.pages);
const rounds = Number(values.rounds);
const batchSize = Number(values.batch);
const inFlightLevels = values['in-flight'].split(',').map(Number);

const config = localHbaseConfig({ HBASE_TABLE: `bench_${Date.now().toString(36)}` });
const words = 'crawler page article news sport weather market city world update story report river mountain'.split(' ');

/** A 4 KB HTML body with some variety, so gzip sees something like real pages (unused here: 4096 is the threshold). */
function page(run, i) {
  const url = `http://site-${i % 97}.bench.test/${run}/article/${i}`;
  let html = `<html><head><title>Article ${i}</title></head><body>`;
  while (html.length < 4096 - 14)
    html += `<p>${words[randomBytes(1)[0] % words.length]} ${randomBytes(6).toString('hex')}</p>`;
  const body = Buffer.from(`${html}</body></html>`.padEnd(4096, ' ').slice(0, 4096));
  return samplePage(url, 1_790_000_000_000 + i, { body, text: html.replace(/<[^>]+>/g, ' ').slice(0, 1024) });
}

function batches(run, count) {
  const out = [];
  for (let first = 0; first < count; first += batchSize) {
    out.push(Array.from({ length: Math.min(batchSize, count - first) }, (_, k) => page(run, first + k)));
  }
  return out;
}

/** Runs `work` over the batches, `inFlight` at a time; returns pages per second. */
async function measure(list, inFlight, work) {
  const pages = list.reduce((sum, batch) => sum + batch.length, 0);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < list.length) await work(list[next++]);
    }),
  );
  return pages / (Number(process.hrtime.bigint() - started) / 1e9);
}

const store = await createHbasePageStore(config, silentLogger());
const rpc = hbase({
  zookeeperHosts: config.zookeeperQuorum.split(','),
  zookeeperRoot: '/hbase',
  rpcTimeout: 30_000,
  callTimeout: 30_000,
  tcpNoDelay: true,
});
rpc.on('error', (error) => console.error('hbase-rpc-client error event:', error));
const rpcMput = (puts) =>
  new Promise((resolve, reject) =>
    rpc.mput(config.table, puts, (error, results) => {
      const failed =
        error ?? results?.find((result) => result && typeof result === 'object' && 'exceptionClassName' in result);
      return failed ? reject(new Error(JSON.stringify(failed.exceptionClassName ?? failed))) : resolve();
    }),
  );
const restUrl = new URL(config.restUrl);

/** The same cells the store writes, encoded up front: what the bare clients send. */
async function encoded(list) {
  return Promise.all(
    list.map((pages) =>
      Promise.all(
        pages.map(async (p) => ({
          key: pageRowKey(p.url),
          cells: (await encodePage(p, config.compressMinBytes)).map((cell) => ({
            column: `${PAGE_FAMILY}:${cell.qualifier}`,
            timestamp: p.fetchedAt,
            value: cell.value,
          })),
        })),
      ),
    ),
  );
}

const variants = {
  'page store put (REST)': async (run, count) => {
    const list = batches(run, count);
    return (inFlight) => measure(list, inFlight, (pages) => store.put(pages));
  },
  'bare REST put, same cells (fetch + JSON)': async (run, count) => {
    const list = await encoded(batches(run, count));
    return (inFlight) =>
      measure(list, inFlight, async (rows) => {
        const response = await fetch(`${restUrl.origin}/${config.table}/batch`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: cellSetJson(rows),
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
      });
  },
  'bare hbase-rpc-client mput, same cells (native RPC)': async (run, count) => {
    const list = await encoded(batches(run, count));
    return (inFlight) =>
      measure(list, inFlight, (rows) =>
        rpcMput(
          rows.map((row) => {
            const put = new hbase.Put(row.key);
            for (const cell of row.cells)
              put.add(PAGE_FAMILY, cell.column.slice(PAGE_FAMILY.length + 1), cell.value, cell.timestamp);
            return put;
          }),
        ),
      );
  },
};

const cellBytes = (await encoded([[page('size', 0)]]))[0][0].cells.reduce((sum, cell) => sum + cell.value.length, 0);
console.log(
  `HBase ${config.restUrl} (zk ${config.zookeeperQuorum}), table ${config.table}; ${pageCount} pages of 4096 B body (${cellBytes} B of cells each) per variant and round, batches of ${batchSize}, ${rounds} rounds`,
);
const entries = Object.entries(variants);
const median = (sorted) => sorted[Math.floor(sorted.length / 2)];
const rate = (value) => Math.round(value).toLocaleString('en-US').padStart(7);
try {
  // Warm-up: JIT, connections, region location caches.
  for (const [v, [, prepare]] of entries.entries()) await (await prepare(`warmup-${v}`, 1000))(2);
  for (const inFlight of inFlightLevels) {
    const rates = entries.map(() => []);
    const failures = entries.map(() => null);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < entries.length; k++) {
        const v = (round + k) % entries.length;
        if (failures[v]) continue;
        const run = await entries[v][1](`run-${v}-${inFlight}-${round}`, pageCount);
        try {
          rates[v].push(await run(inFlight));
        } catch (error) {
          // hbase-rpc-client loses a table for good when one of its regions splits (see README).
          failures[v] = `round ${round + 1}: ${error.message}`;
        }
      }
    }
    for (const [v, [name]] of entries.entries()) {
      const sorted = rates[v].sort((a, b) => a - b);
      const summary =
        sorted.length === 0
          ? ''
          : `${rate(median(sorted))} pages/s median (${rate(sorted[0]).trim()}-${rate(sorted.at(-1)).trim()}, ${sorted.length} rounds)  ${((median(sorted) * cellBytes) / 1e6).toFixed(1).padStart(5)} MB/s of cells`;
      console.log(
        `${name.padEnd(52)} ${String(inFlight).padStart(2)} in flight  ${summary}${failures[v] ? `  FAILED in ${failures[v]}` : ''}`,
      );
    }
  }
} finally {
  await store.close();
  rpc.zk.close();
  for (const server of Object.values(rpc.servers)) server.socket?.destroy();
  await dropTable(config);
}
