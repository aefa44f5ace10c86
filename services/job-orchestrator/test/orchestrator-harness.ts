import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MessageInitShape, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AckPolicy, type JetStreamClient, type NatsConnection, connect } from 'nats';
import { FamilyManifestSchema, Streams, Subjects, TaskOutcomeSchema, type TaskWork, TaskWorkSchema } from '@transmute/contracts';
import { createInfraProvider, freePort, repoRoot, type RunningInfra } from '@transmute/devstack';
import { MANIFEST_REFRESH_MS, encodeManifest, manifestBucket } from '@transmute/messaging';
import { loadConfig } from '@transmute/service-kit';
import { AppModule } from '../src/app.module';
import { type OrchestratorConfig, orchestratorConfig } from '../src/config';

/**
 * Real NATS and FerretDB, the real catalogue service as a process, and the
 * orchestrator in-process. The test plays the workers: it pulls their work
 * from JetStream and publishes their outcomes.
 */
export class OrchestratorHarness {
  infra!: RunningInfra;
  app!: INestApplication;
  config!: OrchestratorConfig;
  nats!: NatsConnection;
  js!: JetStreamClient;
  private catalogue?: ChildProcess;
  private readonly replicas: ChildProcess[] = [];
  private env: Record<string, string> = {};
  private scratch!: string;
  private manifestRefresh?: NodeJS.Timeout;

  async start(env: Record<string, string> = {}): Promise<void> {
    this.scratch = await mkdtemp(join(tmpdir(), 'orchestrator-it-'));
    this.infra = await createInfraProvider().start({ dataDir: join(this.scratch, 'infra') });
    this.nats = await connect({ servers: this.infra.natsUrl });
    this.js = this.nats.jetstream();
    await this.announceImageFamily();
    await this.startCatalogue();
    this.env = {
      TRANSMUTE_NATS_URL: this.infra.natsUrl,
      TRANSMUTE_MONGODB_URI: `${this.infra.mongoUri}orchestrator_it`,
      TRANSMUTE_HTTP_PORT: '0',
      TRANSMUTE_STORAGE_FS_ROOT: join(this.scratch, 'storage'),
      TRANSMUTE_STORAGE_SIGNING_KEY: 's'.repeat(32),
      TRANSMUTE_DOWNLOAD_TOKEN_KEY: 'd'.repeat(32),
      TRANSMUTE_CREDENTIALS_KEY: 'k'.repeat(32),
      TRANSMUTE_LOG_LEVEL: 'warn',
      // The test drives the reconciler by hand.
      TRANSMUTE_RECONCILE_INTERVAL_MS: '3600000',
      // No gateway here to answer accounts.usage.charge; quota metering is covered by the e2e limits specs.
      TRANSMUTE_USAGE_METERING: 'false',
      ...env,
    };
    this.config = loadConfig(orchestratorConfig, this.env);
    this.app = await NestFactory.create(AppModule.forRoot(this.config), { logger: ['error'] });
    await this.app.init();
    await this.createWorkerConsumers();
  }

  /**
   * Another orchestrator replica on the same NATS and store, as a second pod
   * would be: the built service as its own process (one process has one
   * metrics registry). It shares the outcome consumer and answers jobs.* in
   * the same queue group.
   */
  async addReplica(env: Record<string, string> = {}): Promise<void> {
    const port = await freePort();
    const entry = join(repoRoot(), 'services/job-orchestrator/dist/main.js');
    const replica = spawn(process.execPath, [entry], {
      env: { ...process.env, ...this.env, TRANSMUTE_HTTP_PORT: String(port), ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.replicas.push(replica);
    await waitUntilReady(port, entry);
  }

  async stop(): Promise<void> {
    clearInterval(this.manifestRefresh);
    for (const replica of this.replicas) replica.kill('SIGTERM');
    await this.app?.close();
    this.catalogue?.kill('SIGTERM');
    await this.nats?.close();
    await this.infra?.stop();
    await rm(this.scratch, { recursive: true, force: true });
  }

  /** What a worker pool would pull next from `subject`, or null when nothing waits there. */
  async pullWork(subject: string): Promise<TaskWork | null> {
    const consumer = await this.js.consumers.get(Streams.tasks.name, consumerName(subject));
    const message = await consumer.next({ expires: 2_000 });
    if (!message) return null;
    message.ack();
    return fromBinary(TaskWorkSchema, message.data);
  }

  async report(outcome: MessageInitShape<typeof TaskOutcomeSchema>): Promise<void> {
    // No msgID: this simulates redeliveries that JetStream de-duplication would not catch.
    await this.js.publish(Subjects.tasksOutcomes, toBinary(TaskOutcomeSchema, create(TaskOutcomeSchema, outcome)));
  }

  /**
   * Announces the image family and keeps announcing it, as a running family
   * does: the manifest bucket forgets a family after MANIFEST_TTL_MS, and a
   * spec file runs longer than that.
   */
  private async announceImageFamily(): Promise<void> {
    const bucket = manifestBucket(this.nats);
    const manifest = create(FamilyManifestSchema, {
      family: 'image',
      pairs: [
        { inputFormat: 'png', outputFormat: 'jpg' },
        { inputFormat: 'jpg', outputFormat: 'webp' },
      ],
    });
    const encoded = encodeManifest(manifest);
    await bucket.put('image', encoded);
    // A refresh that meets NATS restarting is simply missed; the next one lands.
    this.manifestRefresh = setInterval(() => void bucket.put('image', encoded).catch(() => undefined), MANIFEST_REFRESH_MS);
  }

  private async startCatalogue(): Promise<void> {
    const port = await freePort();
    const entry = join(repoRoot(), 'services/catalogue/dist/main.js');
    this.catalogue = spawn(process.execPath, [entry], {
      env: { ...process.env, TRANSMUTE_NATS_URL: this.infra.natsUrl, TRANSMUTE_HTTP_PORT: String(port), TRANSMUTE_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilReady(port, entry);
  }

  private async createWorkerConsumers(): Promise<void> {
    const jsm = await this.nats.jetstreamManager();
    for (const subject of [Subjects.tasksImport, Subjects.tasksConvert('image'), Subjects.tasksExport]) {
      await jsm.consumers.add(Streams.tasks.name, { durable_name: consumerName(subject), filter_subject: subject, ack_policy: AckPolicy.Explicit });
    }
  }
}

async function waitUntilReady(port: number, entry: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${entry} did not become ready; run \`pnpm build\` first`);
}

const consumerName = (subject: string) => `it-${subject.replace(/\./g, '-')}`;
