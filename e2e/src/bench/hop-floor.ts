/**
 * What one hop of the platform's shape costs on this machine, with nothing
 * of the platform around it: the CPU (this process, which plays both ends,
 * plus nats-server; or a bare HTTP server process) per NATS request/reply,
 * JetStream publish, KV compare-and-set, durable delivery and HTTP request
 * with the small job's 250 KB JSON body. Multiplied by the fewest hops the
 * architecture allows a small job, it gives the floor under the platform's
 * CPU per job (e2e/README.md, "The floor under a job's CPU").
 *
 *   pnpm bench:hop-floor [--ops N (5000)] [--concurrency N (16)]
 *
 * Starts its own nats-server (JetStream, file storage) through
 * @transmute/devstack; traffic stays on loopback. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { AckPolicy, type JetStreamClient, type NatsConnection, StorageType, connect } from 'nats';
import { createInfraProvider, freePort, pidListeningOn, processTreeCpuSeconds } from '@transmute/devstack';
import { positiveInteger } from './bench-kit';

const BODY_BYTES = 250_000;

interface HopCost {
  hop: string;
  ops: number;
  cpuMsPerOp: number;
  opsPerSecond: number;
}

/** The CPU the given processes spent while `run` did `ops` operations. */
async function measureRun(hop: string, ops: number, pids: number[], run: () => Promise<void>): Promise<HopCost> {
  const cpuBefore = await processTreeCpuSeconds(pids);
  const began = performance.now();
  await run();
  const seconds = (performance.now() - began) / 1000;
  const cpu = (await processTreeCpuSeconds(pids)) - cpuBefore;
  return { hop, ops, cpuMsPerOp: (1000 * cpu) / ops, opsPerSecond: ops / seconds };
}

/** Runs `op` `ops` times, `concurrency` at a time, and the CPU the given processes spent on it. */
function measure(hop: string, ops: number, concurrency: number, pids: number[], op: (index: number) => Promise<unknown>): Promise<HopCost> {
  let next = 0;
  return measureRun(hop, ops, pids, async () => {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < ops; index = next++) await op(index);
      }),
    );
  });
}

async function natsHops(nc: NatsConnection, responder: NatsConnection, pids: number[], ops: number, concurrency: number): Promise<HopCost[]> {
  const payload = new Uint8Array(200);
  const subscription = responder.subscribe('floor.rpc', { callback: (_error, message) => message.respond(payload) });
  await responder.flush();
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: 'FLOOR', subjects: ['floor.work.>'], storage: StorageType.File });
  const js: JetStreamClient = nc.jetstream();
  const kv = await js.views.kv('floor_kv', { history: 1 });
  const revisions: number[] = [];
  const costs = [
    await measure('NATS request/reply', ops, concurrency, pids, () => nc.request('floor.rpc', payload)),
    await measure('JetStream publish, acknowledged', ops, concurrency, pids, (index) => js.publish(`floor.work.${index % 64}`, payload)),
    await measure('KV create', ops, concurrency, pids, async (index) => (revisions[index] = await kv.create(`k${index}`, payload))),
    await measure('KV compare-and-set', ops, concurrency, pids, (index) => kv.update(`k${index}`, payload, revisions[index] ?? 0)),
    await measure('KV get', ops, concurrency, pids, (index) => kv.get(`k${index}`)),
  ];
  await jsm.consumers.add('FLOOR', { durable_name: 'floor', ack_policy: AckPolicy.Explicit, max_ack_pending: 1_000 });
  const consumer = await js.consumers.get('FLOOR', 'floor');
  costs.push(
    await measureRun('durable delivery and its ack', ops, pids, async () => {
      let delivered = 0;
      for await (const message of await consumer.consume({ max_messages: 256 })) {
        message.ack();
        if (++delivered === ops) break;
      }
      await nc.flush();
    }),
  );
  subscription.unsubscribe();
  return costs;
}

/** A bare node:http server in its own process that parses a JSON body and answers 201; its CPU per request, with that body and without. */
async function httpHops(ops: number, concurrency: number): Promise<HopCost[]> {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((req, res) => { const chunks = []; req.on('data', (c) => chunks.push(c)); req.on('end', () => { const body = JSON.parse(Buffer.concat(chunks).toString('utf8')); const bytes = Buffer.from(body.file, 'base64'); res.writeHead(201, { 'content-type': 'application/json' }); res.end(JSON.stringify({ id: 'x', size: bytes.length })); }); }).listen(${port}, '127.0.0.1', () => process.stdout.write('ready'));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => server.stdout.once('data', () => resolve()));
  const large = JSON.stringify({ file: Buffer.alloc((BODY_BYTES * 3) / 4, 7).toString('base64') });
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const call = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  try {
    return [
      await measure(`HTTP POST of a ${BODY_BYTES / 1000} KB JSON body (server only)`, ops, concurrency, [server.pid!], () => post(large)),
      await measure('HTTP POST of a small JSON body (server only)', ops, concurrency, [server.pid!], () => post(JSON.stringify({ file: '' }))),
    ];
  } finally {
    server.kill();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { ops: { type: 'string' }, concurrency: { type: 'string' } } });
  const ops = positiveInteger('ops', values.ops, 5_000);
  const concurrency = positiveInteger('concurrency', values.concurrency, 16);
  const infra = await createInfraProvider().start();
  try {
    const [nc, responder] = [await connect({ servers: infra.natsUrl }), await connect({ servers: infra.natsUrl })];
    const natsPid = await pidListeningOn(Number(new URL(infra.natsUrl).port));
    if (natsPid === undefined) throw new Error(`no process listens on ${infra.natsUrl}`);
    const costs = [...(await natsHops(nc, responder, [process.pid, natsPid], ops, concurrency)), ...(await httpHops(Math.min(ops, 2_000), concurrency))];
    await Promise.all([nc.drain(), responder.drain()]);
    process.stdout.write(`CPU per hop, ${concurrency} at a time (this process as both ends + nats-server; the HTTP server alone)\n`);
    for (const cost of costs)
      process.stdout.write(`  ${cost.hop.padEnd(52)} ${cost.cpuMsPerOp.toFixed(3).padStart(7)} ms CPU  ${cost.opsPerSecond.toFixed(0).padStart(7)} /s  (${cost.ops})\n`);
  } finally {
    await infra.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
