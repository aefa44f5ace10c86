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

const ENTRY = join(__dirname, '..', 'dist', 'main.js');
const SIGNING_KEY = 'converter-process-int-spec-signing-key-0123';

/**
 * One built converter process of one family on a real NATS, fed as the
 * orchestrator would: inputs in fs storage, work on `tasks.convert.<family>`,
 * every outcome collected. Waits fail with the converter's last log lines.
 */
export class ConverterProcess {
  readonly outcomes: TaskOutcome[] = [];
  nc!: NatsConnection;
  storage!: FsStorage;
  baseUrl = '';
  private infra?: RunningInfra;
  private root = '';
  private child?: ChildProcess;
  private logs = '';

  constructor(
    private readonly family: string,
    private readonly extraEnv: Record<string, string> = {},
  ) {}

  /** The converter's scratch space (TRANSMUTE_WORK_DIR). */
  get workDir(): string {
    return join(this.root, 'work');
  }

  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  /** `seedWorkDir`: puts files in the scratch space before the converter starts, as a killed predecessor would have left them. */
  async start(seedWorkDir?: (workDir: string) => Promise<void>): Promise<void> {
    this.root = await mkdtemp(join(tmpdir(), `converter-${this.family}-`));
    await seedWorkDir?.(this.workDir);
    this.infra = await createInfraProvider().start();
    this.nc = await connect({ servers: this.infra.natsUrl });
    const setup = new JetStreamSetup(this.nc);
    await setup.ensureStream(Streams.outcomes);
    await setup.ensureStream(Streams.tasks);
    this.storage = new FsStorage({ root: join(this.root, 'storage'), signingKey: SIGNING_KEY, publicUrl: 'http://127.0.0.1:1' });
    this.nc.subscribe(Subjects.tasksOutcomes, { callback: (_error, message) => this.outcomes.push(fromBinary(TaskOutcomeSchema, message.data)) });
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [ENTRY], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        TRANSMUTE_CONVERTER_FAMILY: this.family,
        TRANSMUTE_NATS_URL: this.infra.natsUrl,
        TRANSMUTE_HTTP_HOST: '127.0.0.1',
        TRANSMUTE_HTTP_PORT: String(port),
        TRANSMUTE_STORAGE_FS_ROOT: join(this.root, 'storage'),
        TRANSMUTE_STORAGE_SIGNING_KEY: SIGNING_KEY,
        TRANSMUTE_WORK_DIR: this.workDir,
        TRANSMUTE_LOG_LEVEL: 'info',
        ...this.extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.logs += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.logs += chunk.toString()));
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child!.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    await this.nc?.close();
    await this.infra?.stop();
    if (this.root) await rm(this.root, { recursive: true, force: true });
  }

  /** Polls `check` until it gives a value; fails when the converter exits or time runs out. */
  async until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 90_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (this.exitCode !== null) throw new Error(`converter exited (${this.exitCode}) while waiting for ${what}:\n${this.lastLogs()}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.lastLogs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Whether the converter has written `text` to its output so far. */
  hasLogged(text: string): boolean {
    return this.logs.includes(text);
  }

  lastLogs(): string {
    return this.logs.slice(-2_000);
  }

  /** Stores `content` as the input and publishes the convert work of task `taskName` of job `it-job`. */
  async submit(taskName: string, content: string | Buffer, inputFormat: string, outputFormat: string, options = {}): Promise<void> {
    const key = `uploads/it/${taskName}.${inputFormat}`;
    const stored = await this.storage.put(key, Readable.from([Buffer.from(content)]));
    const work = create(TaskWorkSchema, {
      jobId: 'it-job',
      taskName,
      attempt: 1,
      inputFormat,
      outputFormat,
      inputs: [{ key, filename: `model.${inputFormat}`, size: BigInt(stored.size), format: inputFormat }],
      spec: { operation: 'convert', options },
    });
    await new WorkPublisher(this.nc).publish(Subjects.tasksConvert(this.family), TaskWorkSchema, work, `it-job.${taskName}.1`);
  }

  /** The task's succeeded or failed outcome, once it has one. */
  ended(taskName: string): TaskOutcome | undefined {
    return this.outcomes.find((outcome) => outcome.taskName === taskName && (outcome.outcome.case === 'succeeded' || outcome.outcome.case === 'failed'));
  }
}
