import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { create, fromBinary } from '@bufbuild/protobuf';
import { type NatsConnection, connect } from 'nats';
import { Streams, Subjects, type TaskOutcome, TaskOutcomeSchema, TaskWorkSchema } from '@transmute/contracts';
import { createInfraProvider, freePort, type RunningInfra } from '@transmute/devstack';
import { JetStreamSetup, WorkPublisher, decodeManifest, openManifestBucket } from '@transmute/messaging';
import { FsStorage } from '@transmute/storage';
import { CUBE_OBJ } from '../src/families/3d/three-d.proof';

const entry = join(__dirname, '..', 'dist', 'main.js');
const SIGNING_KEY = 'converter-int-spec-signing-key-0123456789';

/**
 * One real converter process (the built service, family `3d`) on a real
 * NATS: it announces its manifest, fails a corrupt input with a clear
 * message and keeps serving, and reports progress before success.
 */
describe('converter worker', () => {
  let infra: RunningInfra;
  let nc: NatsConnection;
  let publisher: WorkPublisher;
  let storage: FsStorage;
  let root: string;
  let converter: ChildProcess;
  let logs = '';
  const outcomes: TaskOutcome[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'converter-int-'));
    infra = await createInfraProvider().start();
    nc = await connect({ servers: infra.natsUrl });
    const setup = new JetStreamSetup(nc);
    await setup.ensureStream(Streams.outcomes);
    await setup.ensureStream(Streams.tasks);
    publisher = new WorkPublisher(nc);
    storage = new FsStorage({ root: join(root, 'storage'), signingKey: SIGNING_KEY, publicUrl: 'http://127.0.0.1:1' });
    nc.subscribe(Subjects.tasksOutcomes, { callback: (_error, message) => outcomes.push(fromBinary(TaskOutcomeSchema, message.data)) });
    converter = spawn(process.execPath, [entry], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        TRANSMUTE_CONVERTER_FAMILY: '3d',
        TRANSMUTE_NATS_URL: infra.natsUrl,
        TRANSMUTE_HTTP_HOST: '127.0.0.1',
        TRANSMUTE_HTTP_PORT: String(await freePort()),
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

  async function until<T>(check: () => T | undefined | false, what: string, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = check();
      if (value) return value;
      if (converter.exitCode !== null) throw new Error(`converter exited (${converter.exitCode}) while waiting for ${what}:\n${logs.slice(-2_000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${logs.slice(-2_000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function submit(taskName: string, content: string | Buffer, inputFormat: string, outputFormat: string, options = {}): Promise<void> {
    const key = `uploads/it/${taskName}.${inputFormat}`;
    const stored = await storage.put(key, Readable.from([Buffer.from(content)]));
    const work = create(TaskWorkSchema, {
      jobId: 'it-job',
      taskName,
      attempt: 1,
      inputFormat,
      outputFormat,
      inputs: [{ key, filename: `model.${inputFormat}`, size: BigInt(stored.size), format: inputFormat }],
      spec: { operation: 'convert', options },
    });
    await publisher.publish(Subjects.tasksConvert('3d'), TaskWorkSchema, work, `it-job.${taskName}.1`);
  }

  const final = (taskName: string) => () =>
    outcomes.find((outcome) => outcome.taskName === taskName && (outcome.outcome.case === 'succeeded' || outcome.outcome.case === 'failed'));

  it('announces its manifest to the catalogue bucket', async () => {
    const bucket = await openManifestBucket(nc.jetstream());
    const manifest = await (async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const found = await bucket.get('3d');
        if (found?.value.length) return decodeManifest(found.value);
        if (Date.now() > deadline) throw new Error(`no manifest announced:\n${logs.slice(-2_000)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    expect(manifest.family).toBe('3d');
    expect(manifest.engineVersion).toMatch(/^assimp/);
    expect(manifest.pairs.some((pair) => pair.inputFormat === 'obj' && pair.outputFormat === 'glb')).toBe(true);
  });

  it('fails a corrupt input with a clear, permanent error and keeps serving', async () => {
    await submit('corrupt', 'this is not a 3ds model', '3ds', 'obj');
    const failed = await until(final('corrupt'), 'the corrupt task outcome');
    expect(failed.outcome.case).toBe('failed');
    const error = failed.outcome.case === 'failed' ? failed.outcome.value.error : undefined;
    expect(error?.retryable).toBe(false);
    expect(error?.message).toMatch(/^assimp exited with code \d+: .*ERROR/);

    await submit('after-corrupt', CUBE_OBJ, 'obj', 'glb');
    const succeeded = await until(final('after-corrupt'), 'the next task outcome');
    expect(succeeded.outcome.case).toBe('succeeded');
    const file = succeeded.outcome.case === 'succeeded' ? succeeded.outcome.value.file : undefined;
    expect(file).toMatchObject({ filename: 'model.glb', format: 'glb' });
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(file!.key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(converter.exitCode).toBeNull();
  });

  it('reports progress between started and succeeded', async () => {
    await submit('progress', CUBE_OBJ, 'obj', 'stl', { encoding: 'ascii' });
    await until(final('progress'), 'the progress task outcome');
    const kinds = outcomes.filter((outcome) => outcome.taskName === 'progress').map((outcome) => outcome.outcome.case);
    expect(kinds[0]).toBe('started');
    expect(kinds).toContain('progress');
    expect(kinds.indexOf('progress')).toBeLessThan(kinds.indexOf('succeeded'));
  });
});
