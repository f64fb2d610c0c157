// Writes and reads every 500 ms through hbase-rpc-client, through bare REST calls and through the
// page store (built package: npx tsc -b packages/hbase) while HBase is restarted by hand, and
// prints each change of outcome. Usage:
//   node packages/hbase/scripts/probe-restart.mjs [zkQuorum] [restUrl] [seconds]
import { createRequire } from 'node:module';
import { silentLogger } from '@crawler/core';
import { createHbasePageStore, loadHbaseConfig } from '../dist/index.js';
import { samplePage } from '../dist/testing/index.js';

const require = createRequire(import.meta.url);
const hbase = require('hbase-rpc-client');

const quorum = process.argv[2] ?? '127.0.0.1:12181';
const rest = process.argv[3] ?? 'http://127.0.0.1:18080';
const seconds = Number(process.argv[4] ?? 120);
const table = `probe_restart_${Date.now().toString(36)}`;
const started = Date.now();

function describe(error) {
  if (typeof error === 'string') return JSON.stringify(error);
  if (error?.exceptionClassName) return error.exceptionClassName;
  return `${error?.name}: ${error?.message}${error?.cause ? ` (${error.cause.code ?? error.cause.message})` : ''}`;
}

function rpc(fn, ms = 12_000) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`HANG (no callback within ${ms} ms)`), ms);
    fn((error) => {
      clearTimeout(timer);
      resolve(error ? `ERROR ${describe(error)}` : 'ok');
    });
  });
}

async function restCall(path, init) {
  try {
    const response = await fetch(`${rest}${path}`, { ...init, signal: AbortSignal.timeout(12_000) });
    await response.arrayBuffer();
    return response.ok ? 'ok' : `HTTP ${response.status}`;
  } catch (error) {
    return `ERROR ${describe(error)}`;
  }
}

const last = new Map();
function note(path, outcome) {
  if (last.get(path) === outcome) return;
  last.set(path, outcome);
  console.log(`${String(((Date.now() - started) / 1000).toFixed(1)).padStart(6)} s  ${path.padEnd(10)} ${outcome}`);
}

const schema = await restCall(`/${table}/schema`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: table, ColumnSchema: [{ name: 'p' }] }),
});
if (schema !== 'ok') throw new Error(`create table: ${schema}`);
const client = hbase({ zookeeperHosts: [quorum], zookeeperRoot: '/hbase', rpcTimeout: 10_000, callTimeout: 5_000 });
client.on('error', (error) => note('rpc event', `'error' event ${describe(error)}`));

// Two independent loops, so that a hang on one path does not hide what the other does.
const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
const running = () => Date.now() - started < seconds * 1000;
async function rpcLoop() {
  for (let i = 0; running(); i++) {
    const put = new hbase.Put('row');
    put.add('p', 'b', `v${i}`, Date.now());
    const rpcPut = await rpc((cb) => client.put(table, put, cb));
    const rpcGet = await rpc((cb) => client.get(table, new hbase.Get('row'), cb));
    note('rpc', `put ${rpcPut}, get ${rpcGet}`);
    await pause();
  }
}
async function restLoop() {
  for (let i = 0; running(); i++) {
    const cell = JSON.stringify({
      Row: [
        {
          key: Buffer.from('row').toString('base64'),
          Cell: [{ column: Buffer.from('p:b').toString('base64'), $: Buffer.from(`r${i}`).toString('base64') }],
        },
      ],
    });
    const restPut = await restCall(`/${table}/row`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: cell,
    });
    const restGet = await restCall(`/${table}/row/p:b`, { headers: { accept: 'application/json' } });
    note('rest', `put ${restPut}, get ${restGet}`);
    await pause();
  }
}
const store = await createHbasePageStore(
  loadHbaseConfig({ env: { HBASE_REST_URL: rest, HBASE_TABLE: table, HBASE_REQUEST_TIMEOUT_MS: '5000' } }),
  silentLogger(),
);
async function storeLoop() {
  const url = 'http://restart.probe.test/page';
  for (let i = 0; running(); i++) {
    let outcome;
    try {
      await store.put([samplePage(url, Date.now())]);
      outcome = `put+get ok (${(await store.get(url)).length} page)`;
    } catch (error) {
      outcome = `${error.name} ${error.code} retriable=${error.retriable}: ${error.message.replace(/ \(gateway .*$/, '').slice(0, 120)}`;
    }
    note('store', outcome);
    await pause();
  }
}
await Promise.all([rpcLoop(), restLoop(), storeLoop()]);
await restCall(`/${table}/schema`, { method: 'DELETE' });
process.exit(0);
