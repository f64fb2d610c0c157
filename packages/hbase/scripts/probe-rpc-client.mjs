// Probes hbase-rpc-client@0.1.15 against the running HBase for what the PageStore port needs.
// Evidence for README.md; prints one line per check. Usage:
//   node packages/hbase/scripts/probe-rpc-client.mjs [zkQuorum] [restUrl]
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const hbase = require('hbase-rpc-client');

const quorum = process.argv[2] ?? '127.0.0.1:12181';
const rest = process.argv[3] ?? 'http://127.0.0.1:18080';
const table = `probe_rpc_${Date.now().toString(36)}`;

function describe(error) {
  if (error === null || error === undefined) return String(error);
  if (typeof error === 'string') return JSON.stringify(error);
  if (error.exceptionClassName) return `${error.exceptionClassName}: ${String(error.stackTrace ?? '').split('\n')[0]}`;
  return `${error.constructor?.name ?? typeof error}: ${error.message ?? JSON.stringify(error)}`;
}

/** Calls an rpc-client method; a callback that never comes is reported as a hang after `ms`. */
function call(fn, ms = 15_000) {
  return new Promise((resolve) => {
    const started = Date.now();
    const timer = setTimeout(() => resolve({ hang: true, ms: Date.now() - started }), ms);
    try {
      fn((error, result) => {
        clearTimeout(timer);
        resolve({ error, result, ms: Date.now() - started });
      });
    } catch (thrown) {
      clearTimeout(timer);
      resolve({ thrown, ms: Date.now() - started });
    }
  });
}

function report(name, outcome, detail = '') {
  const what = outcome.hang
    ? `HANG (no callback within ${outcome.ms} ms)`
    : outcome.thrown
      ? `THREW ${describe(outcome.thrown)}`
      : outcome.error
        ? `ERROR ${describe(outcome.error)}`
        : 'ok';
  console.log(`${name.padEnd(48)} ${what.padEnd(40)} ${String(outcome.ms ?? '').padStart(6)} ms ${detail}`);
}

function cells(result, column = 'p:b') {
  const entry = result?.cols?.[column];
  if (!entry) return [];
  return Array.isArray(entry) ? entry : [entry];
}

async function createTable(name) {
  const response = await fetch(`${rest}/${name}/schema`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, ColumnSchema: [{ name: 'p', VERSIONS: '10' }] }),
  });
  if (!response.ok) throw new Error(`create ${name}: HTTP ${response.status}`);
}

const clients = [];
function connect() {
  const client = hbase({
    zookeeperHosts: [quorum],
    zookeeperRoot: '/hbase',
    rpcTimeout: 10_000,
    callTimeout: 10_000,
    tcpNoDelay: true,
  });
  client.on('error', (error) => console.log(`client 'error' event: ${describe(error)}`));
  clients.push(client);
  return client;
}

async function main() {
  await createTable(table);
  const client = connect();

  // Versions: three puts of one cell with explicit timestamps (= fetchedAt), then a Get with maxVersions.
  for (const ts of [1000, 3000, 2000]) {
    const put = new hbase.Put('row-v');
    put.add('p', 'b', `v${ts}`, ts);
    report(`put ts=${ts}`, await call((cb) => client.put(table, put, cb)));
  }
  for (const max of [10, 2, 1]) {
    const get = new hbase.Get('row-v');
    get.setMaxVersions(max);
    const outcome = await call((cb) => client.get(table, get, cb));
    const got = cells(outcome.result).map((cell) => `${cell.value.toString()}@${cell.timestamp.toString()}`);
    report(`get maxVersions=${max}`, outcome, got.join(' '));
  }
  {
    const get = new hbase.Get('row-v');
    get.setMaxVersions(10);
    get.setTimeRange(1500, 2500);
    const outcome = await call((cb) => client.get(table, get, cb));
    report(
      'get timeRange [1500,2500)',
      outcome,
      cells(outcome.result)
        .map((cell) => cell.value.toString())
        .join(' '),
    );
  }
  {
    // Same (row, ts) written twice: HBase keeps one cell, the last write.
    const put = new hbase.Put('row-v');
    put.add('p', 'b', 'v3000-again', 3000);
    await call((cb) => client.put(table, put, cb));
    const get = new hbase.Get('row-v');
    get.setMaxVersions(10);
    const outcome = await call((cb) => client.get(table, get, cb));
    report(
      'same ts twice -> versions',
      outcome,
      cells(outcome.result)
        .map((cell) => cell.value.toString())
        .join(' '),
    );
  }

  // Binary safety: every byte value, in the value, the row key and the qualifier.
  {
    const bytes = Buffer.alloc(256);
    for (let i = 0; i < 256; i++) bytes[i] = i;
    const row = Buffer.from([0xff, 0x00, 0x80, 0x61]);
    const put = new hbase.Put(row);
    put.add('p', 'b', bytes, 5000);
    report('put binary value + binary row', await call((cb) => client.put(table, put, cb)));
    const get = new hbase.Get(row);
    const outcome = await call((cb) => client.get(table, get, cb));
    const value = cells(outcome.result)[0]?.value;
    report('get binary value', outcome, `byte-exact=${Buffer.isBuffer(value) && value.equals(bytes)}`);
  }

  // mput of 50 rows (the adapter's batch).
  {
    const puts = Array.from({ length: 50 }, (_, i) => {
      const put = new hbase.Put(`row-batch-${i}`);
      put.add('p', 'b', Buffer.alloc(4096, i), 8000);
      return put;
    });
    const outcome = await call((cb) => client.mput(table, puts, cb));
    report('mput 50 x 4 KB', outcome, `results=${outcome.result?.length}`);
  }

  // Large cells: HBase's client-side limit hbase.client.keyvalue.maxsize is 10 MB; the server's
  // hbase.server.keyvalue.maxsize also 10 MB.
  for (const size of [1_500_000, 5_000_000, 9_000_000]) {
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i++) body[i] = (i * 7919) & 0xff;
    const put = new hbase.Put(`row-big-${size}`);
    put.add('p', 'b', body, 7000);
    const wrote = await call((cb) => client.put(table, put, cb), 30_000);
    report(`put ${size} B cell`, wrote);
    const outcome = await call((cb) => client.get(table, new hbase.Get(`row-big-${size}`), cb), 30_000);
    const value = cells(outcome.result)[0]?.value;
    report(`get ${size} B cell`, outcome, `byte-exact=${Buffer.isBuffer(value) && value.equals(body)}`);
  }

  // Over the 10 MB limit, then an ordinary small put on the same table: does the client recover?
  {
    const body = Buffer.alloc(11_000_000, 1);
    const put = new hbase.Put('row-big-11m');
    put.add('p', 'b', body, 7000);
    report('put 11000000 B cell (over 10 MB)', await call((cb) => client.put(table, put, cb), 30_000));
    const small = new hbase.Put('row-after');
    small.add('p', 'b', 'small', 1);
    report('small put on the same table afterwards', await call((cb) => client.put(table, small, cb)));
    report('get on the same table afterwards', await call((cb) => client.get(table, new hbase.Get('row-v'), cb)));
    const other = `${table}_b`;
    await createTable(other);
    const put3 = new hbase.Put('row-other');
    put3.add('p', 'b', 'x', 1);
    report('put on another, fresh table', await call((cb) => client.put(other, put3, cb)));
    await fetch(`${rest}/${other}/schema`, { method: 'DELETE' });
  }

  // Error surfacing, each on a fresh client so that one failure cannot hide the next.
  {
    const put = new hbase.Put('row-x');
    put.add('nofamily', 'b', 'x', 1);
    report('put to a missing column family', await call((cb) => connect().put(table, put, cb)));
    report('get on a missing table', await call((cb) => connect().get(`${table}_missing`, new hbase.Get('r'), cb)));
    const put2 = new hbase.Put('row-x');
    put2.add('p', 'b', 'x', 1);
    report('put on a missing table', await call((cb) => connect().put(`${table}_missing`, put2, cb)));
    report('typeof client.close', { ms: 0 }, typeof client.close);
  }

  // An unreachable ZooKeeper: does the call fail, and when?
  {
    const dead = hbase({
      zookeeperHosts: ['127.0.0.1:1'],
      zookeeperRoot: '/hbase',
      rpcTimeout: 3_000,
      callTimeout: 3_000,
    });
    const events = [];
    dead.on('error', (error) => events.push(describe(error)));
    const put = new hbase.Put('row-dead');
    put.add('p', 'b', 'x', 1);
    const outcome = await call((cb) => dead.put(table, put, cb), 10_000);
    report('put with ZooKeeper at 127.0.0.1:1', outcome, `client error events: ${events.join(' | ')}`);
    dead.zk.close();
  }

  await fetch(`${rest}/${table}/schema`, { method: 'DELETE' });
  for (const each of clients) {
    each.zk.close();
    for (const server of Object.values(each.servers)) server.socket?.destroy();
  }
  console.log('done; pending handles keep the process alive if the library leaked any');
  setTimeout(() => process.exit(0), 1000).unref();
}

await main();
