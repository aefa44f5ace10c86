import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { create, fromBinary } from '@bufbuild/protobuf';
import { type NatsConnection, connect } from 'nats';
import { Streams, Subjects, type TaskOutcome, TaskOutcomeSchema, TaskWorkSchema } from '@transmute/contracts';
import { createInfraProvider, freePort, type RunningInfra } from '@transmute/devstack';
import { JetStreamSetup, WorkPublisher } from '@transmute/messaging';
import { FsStorage } from '@transmute/storage';

const entry = join(__dirname, '..', 'dist', 'main.js');
const SIGNING_KEY = 'converter-metrics-int-spec-signing-key-0123';

/**
 * The built document converter with its supervised LibreOffice: the
 * supervisor's metrics and the per-family conversion time appear on
 * `/metrics` (what the chart's alerts read), and `/readyz` is up.
 */
describe('converter engine metrics', () => {
  let infra: RunningInfra;
  let nc: NatsConnection;
  let root: string;
  let converter: ChildProcess;
  let baseUrl: string;
  let logs = '';
  const outcomes: TaskOutcome[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'converter-metrics-'));
    infra = await createInfraProvider().start();
    nc = await connect({ servers: infra.natsUrl });
    const setup = new JetStreamSetup(nc);
    await setup.ensureStream(Streams.outcomes);
    await setup.ensureStream(Streams.tasks);
    nc.subscribe(Subjects.tasksOutcomes, { callback: (_error, message) => outcomes.push(fromBinary(TaskOutcomeSchema, message.data)) });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    converter = spawn(process.execPath, [entry], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        TRANSMUTE_CONVERTER_FAMILY: 'document',
        TRANSMUTE_OFFICE_POOL_SIZE: '1',
        TRANSMUTE_NATS_URL: infra.natsUrl,
        TRANSMUTE_HTTP_HOST: '127.0.0.1',
        TRANSMUTE_HTTP_PORT: String(port),
        TRANSMUTE_STORAGE_FS_ROOT: join(root, 'storage'),
        TRANSMUTE_STORAGE_SIGNING_KEY: SIGNING_KEY,
        TRANSMUTE_WORK_DIR: join(root, 'work'),
        TRANSMUTE_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    converter.stdout?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    converter.stderr?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  });

  afterAll(async () => {
    if (converter && converter.exitCode === null) {
      const exited = new Promise((resolve) => converter.once('exit', resolve));
      converter.kill('SIGTERM');
      await exited;
    }
    await nc?.close();
    await infra?.stop();
    await rm(root, { recursive: true, force: true });
  });

  async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 90_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (converter.exitCode !== null) throw new Error(`converter exited (${converter.exitCode}) while waiting for ${what}:\n${logs.slice(-2_000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${logs.slice(-2_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('exports queue depth, in flight, processes, health, restarts and conversion seconds by family', async () => {
    await until(async () => (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.status === 200, 'readiness');
    const storage = new FsStorage({ root: join(root, 'storage'), signingKey: SIGNING_KEY, publicUrl: 'http://127.0.0.1:1' });
    const key = 'uploads/it/note.txt';
    const stored = await storage.put(key, Readable.from([Buffer.from('a short note\n')]));
    const work = create(TaskWorkSchema, {
      jobId: 'metrics-job',
      taskName: 'to-odt',
      attempt: 1,
      inputFormat: 'txt',
      outputFormat: 'odt',
      inputs: [{ key, filename: 'note.txt', size: BigInt(stored.size), format: 'txt' }],
      spec: { operation: 'convert', options: {} },
    });
    await new WorkPublisher(nc).publish(Subjects.tasksConvert('document'), TaskWorkSchema, work, 'metrics-job.to-odt.1');
    const outcome = await until(() => outcomes.find((entry) => entry.outcome.case === 'succeeded' || entry.outcome.case === 'failed'), 'the conversion');
    expect(outcome.outcome.case).toBe('succeeded');

    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    const engine = { engine: 'libreoffice', service: 'converter-document' };
    expect(sample(metrics, 'transmute_engine_queue_depth', engine)).toBe(0);
    expect(sample(metrics, 'transmute_engine_in_flight', engine)).toBe(0);
    expect(sample(metrics, 'transmute_engine_processes_up', engine)).toBe(1);
    expect(sample(metrics, 'transmute_engine_healthy', engine)).toBe(1);
    expect(metrics).toContain('# TYPE transmute_engine_restarts_total counter');
    expect(sample(metrics, 'transmute_conversion_seconds_count', { family: 'document', outcome: 'succeeded', service: 'converter-document' })).toBe(1);
  });
});

/** The value of one sample of the Prometheus text format, whatever the order of its labels. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of metrics.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
