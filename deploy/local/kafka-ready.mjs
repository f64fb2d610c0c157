// Kafka readiness probe without client libraries or a JVM start: sends one Metadata v1
// request and succeeds once the broker lists itself and knows an active controller.
// Usage: node kafka-ready.mjs <host> <port>   (exit 0 = ready)
import net from 'node:net';

const [host = '127.0.0.1', port = '19092'] = process.argv.slice(2);

function metadataRequest() {
  const clientId = Buffer.from('crawler-stack-probe');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4);
  let o = 0;
  o = body.writeInt16BE(3, o); // api_key Metadata
  o = body.writeInt16BE(1, o); // api_version 1 (has controller_id)
  o = body.writeInt32BE(1, o); // correlation_id
  o = body.writeInt16BE(clientId.length, o);
  o += clientId.copy(body, o);
  body.writeInt32BE(0, o); // topics: empty array (v1: -1 would mean all topics)
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

function parse(buf) {
  let o = 4; // skip correlation_id
  const brokers = [];
  const n = buf.readInt32BE(o);
  o += 4;
  for (let i = 0; i < n; i++) {
    const nodeId = buf.readInt32BE(o);
    o += 4;
    const hl = buf.readInt16BE(o);
    o += 2;
    const h = buf.toString('utf8', o, o + hl);
    o += hl;
    const p = buf.readInt32BE(o);
    o += 4;
    const rl = buf.readInt16BE(o);
    o += 2 + Math.max(rl, 0);
    brokers.push(`${nodeId}@${h}:${p}`);
  }
  return { brokers, controllerId: buf.readInt32BE(o) };
}

const sock = net.connect({ host, port: Number(port) });
let data = Buffer.alloc(0);
const fail = (msg) => {
  console.error(`kafka not ready: ${msg}`);
  process.exit(1);
};
sock.setTimeout(3000, () => fail('timeout'));
sock.on('error', (e) => fail(e.message));
sock.on('connect', () => sock.write(metadataRequest()));
sock.on('data', (chunk) => {
  data = Buffer.concat([data, chunk]);
  if (data.length < 4 || data.length < 4 + data.readInt32BE(0)) return;
  const { brokers, controllerId } = parse(data.subarray(4));
  sock.destroy();
  if (brokers.length === 0 || controllerId < 0) fail(`brokers=${brokers.length} controller=${controllerId}`);
  console.log(`kafka ready: brokers=${brokers.join(',')} controller=${controllerId}`);
  process.exit(0);
});
