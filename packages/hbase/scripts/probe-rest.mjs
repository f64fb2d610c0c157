// Probes the HBase REST gateway for what the PageStore port needs; evidence for README.md.
// Usage: node packages/hbase/scripts/probe-rest.mjs [restUrl]
const rest = process.argv[2] ?? 'http://127.0.0.1:18080';
const table = `probe_rest_${Date.now().toString(36)}`;
const b64 = (value) => Buffer.from(value).toString('base64');

async function call(method, path, body, accept = 'application/json') {
  const started = Date.now();
  try {
    const response = await fetch(`${rest}${path}`, {
      method,
      headers: { accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    return { status: response.status, text, ms: Date.now() - started };
  } catch (error) {
    return {
      status: 0,
      text: `${error.name}: ${error.message} (${error.cause?.code ?? ''})`,
      ms: Date.now() - started,
    };
  }
}

function report(name, outcome, detail = '') {
  const text = outcome.status >= 300 || outcome.status === 0 ? outcome.text.replace(/\s+/g, ' ').slice(0, 160) : '';
  console.log(
    `${name.padEnd(44)} ${String(outcome.status).padEnd(4)} ${String(outcome.ms).padStart(6)} ms ${detail} ${text}`,
  );
}

function cellSet(rows) {
  return {
    Row: rows.map(({ key, cells }) => ({
      key: b64(key),
      Cell: cells.map(({ column, timestamp, value }) => ({
        column: b64(column),
        timestamp,
        $: Buffer.from(value).toString('base64'),
      })),
    })),
  };
}

const schema = { name: table, ColumnSchema: [{ name: 'p', VERSIONS: '10' }] };
report('create table (PUT schema)', await call('PUT', `/${table}/schema`, schema));
report('create again (PUT schema, exists)', await call('PUT', `/${table}/schema`, schema));
report(
  'modify VERSIONS (POST schema)',
  await call('POST', `/${table}/schema`, { name: table, ColumnSchema: [{ name: 'p', VERSIONS: '5' }] }),
  (await call('GET', `/${table}/schema`)).text.match(/"VERSIONS":"\d+"/)?.[0],
);
report(
  'add a family (POST schema)',
  await call('POST', `/${table}/schema`, { name: table, ColumnSchema: [{ name: 'q' }] }),
  (await call('GET', `/${table}/schema`)).text.match(/"name":"[pq]"/g)?.join(' '),
);
await call('POST', `/${table}/schema`, { name: table, ColumnSchema: [{ name: 'p', VERSIONS: '10' }] });
report('schema of a missing table', await call('GET', `/${table}_missing/schema`));

// Row keys: every printable ASCII character, in the URL path (percent-encoded).
const key = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
report(
  'put a row whose key has all of ASCII 32-126',
  await call('PUT', `/${table}/x`, cellSet([{ key, cells: [{ column: 'p:b', timestamp: 1, value: 'ascii' }] }])),
);
{
  const read = await call('GET', `/${table}/${encodeURIComponent(key)}/p`);
  const got = read.status === 200 ? Buffer.from(JSON.parse(read.text).Row[0].key, 'base64').toString() : '';
  report('get it back through the path', read, `key-exact=${got === key}`);
}

// Versions: several rows (and versions) in one multi-row PUT, then GET with ?v=N.
report(
  'multi-row put, explicit timestamps',
  await call(
    'PUT',
    `/${table}/ignored`,
    cellSet([
      {
        key: 'r',
        cells: [
          { column: 'p:b', timestamp: 1000, value: 'v1000' },
          { column: 'p:m', timestamp: 1000, value: 'm1000' },
        ],
      },
      {
        key: 'r',
        cells: [
          { column: 'p:b', timestamp: 3000, value: 'v3000' },
          { column: 'p:m', timestamp: 3000, value: 'm3000' },
        ],
      },
      {
        key: 'r',
        cells: [
          { column: 'p:b', timestamp: 2000, value: 'v2000' },
          { column: 'p:m', timestamp: 2000, value: 'm2000' },
        ],
      },
    ]),
  ),
);
report(
  'same (row, ts) again',
  await call(
    'PUT',
    `/${table}/ignored`,
    cellSet([
      {
        key: 'r',
        cells: [
          { column: 'p:b', timestamp: 3000, value: 'v3000' },
          { column: 'p:m', timestamp: 3000, value: 'm3000' },
        ],
      },
    ]),
  ),
);
for (const v of [10, 2]) {
  const read = await call('GET', `/${table}/r/p?v=${v}`);
  const cells =
    read.status === 200
      ? JSON.parse(read.text).Row[0].Cell.map((c) => `${Buffer.from(c.column, 'base64')}@${c.timestamp}`)
      : [];
  report(`get ?v=${v}`, read, cells.join(' '));
}
report('get without ?v', await call('GET', `/${table}/r/p`), '');
report('get a missing row', await call('GET', `/${table}/nothing/p`));
report('get on a missing table', await call('GET', `/${table}_missing/r/p`));
report(
  'put to a missing family',
  await call('PUT', `/${table}/x`, cellSet([{ key: 'r', cells: [{ column: 'zz:b', timestamp: 1, value: 'x' }] }])),
);
report(
  'put on a missing table',
  await call(
    'PUT',
    `/${table}_missing/x`,
    cellSet([{ key: 'r', cells: [{ column: 'p:b', timestamp: 1, value: 'x' }] }]),
  ),
);
report('multiget (2.6.1)', await call('GET', `/${table}/multiget?row=r&v=2`));

// Binary values and large cells, base64 in JSON.
for (const size of [256, 1_500_000, 5_000_000, 9_000_000, 10_485_760, 11_000_000]) {
  const value = Buffer.alloc(size);
  for (let i = 0; i < size; i++) value[i] = (i * 7919) & 0xff;
  const wrote = await call(
    'PUT',
    `/${table}/x`,
    cellSet([{ key: `big-${size}`, cells: [{ column: 'p:b', timestamp: 7000, value }] }]),
  );
  report(`put a ${size} B cell`, wrote);
  const read = await call('GET', `/${table}/big-${size}/p:b`);
  const got = read.status === 200 ? Buffer.from(JSON.parse(read.text).Row[0].Cell[0].$, 'base64') : Buffer.alloc(0);
  report(`get a ${size} B cell`, read, `byte-exact=${got.equals(value)}`);
}
{
  const read = await call('GET', `/${table}/big-256/p:b`, undefined, 'application/octet-stream');
  report('get one cell as application/octet-stream', read, `length=${read.text.length}`);
}

// Prefix scan (row globbing) returns the newest version of each row under the prefix.
report('prefix scan /table/big-1*', await call('GET', `/${table}/big-1*`), '');

report('drop table (DELETE schema)', await call('DELETE', `/${table}/schema`));
report(
  'request to a closed port',
  await (async () => {
    const started = Date.now();
    try {
      await fetch('http://127.0.0.1:1/version', { signal: AbortSignal.timeout(5000) });
      return { status: 200, text: '', ms: Date.now() - started };
    } catch (error) {
      return { status: 0, text: `${error.name}: ${error.message} (${error.cause?.code})`, ms: Date.now() - started };
    }
  })(),
);
