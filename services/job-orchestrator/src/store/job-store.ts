import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscardPolicy, type JetStreamManager, type KV, type NatsConnection, RetentionPolicy, StorageType, nanos } from 'nats';
import { LIVE_JOBS } from '@transmute/contracts';
import { NATS_CONNECTION, isCasConflict } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import type { LiveJob } from './live-job';
import { StoreCounters } from './store-counters';

/** Conflicts are brief (outcomes of one job racing); this many in a row means something is wrong. */
const MAX_CAS_ATTEMPTS = 100;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const encode = (job: LiveJob) => encoder.encode(JSON.stringify(job));
const decode = (bytes: Uint8Array) => JSON.parse(decoder.decode(bytes)) as LiveJob;
/** Account ids may hold characters a KV key may not. */
const accountToken = (accountId: string) => Buffer.from(accountId).toString('hex') || '00';

/** What a mutation decided: the job to write (null: leave it) and what the caller wants back. */
export interface Mutation<R> {
  job: LiveJob | null;
  result: R;
}

/**
 * Live job state on JetStream: one KV key per job holding the job and its
 * tasks, so a transition is one compare-and-set (`update(key, value,
 * revision)`) that holds across orchestrator replicas, and its cost does not
 * depend on how many jobs are stored. Keys expire with the retention period
 * after their last write. Beside it, an index of each account's jobs (for the
 * dashboard) and the set of started jobs not yet finalized (for the
 * reconciler), both costing in proportion to what they hold, never to all
 * jobs ever stored.
 */
@Injectable()
export class JobStore implements OnApplicationBootstrap {
  private readonly logger = new Logger(JobStore.name);
  private buckets?: Promise<{ jobs: KV; index: KV; jsm: JetStreamManager }>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
    private readonly counters: StoreCounters,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('job-store', () =>
      this.open().then(
        () => true,
        () => false,
      ),
    );
  }

  async create(job: LiveJob): Promise<void> {
    const { jobs, index } = await this.open();
    await jobs.create(job.id, encode(job));
    await index.put(`${accountToken(job.accountId)}.${job.id}`, new Uint8Array());
    this.counters.count('create', 2);
  }

  async get(jobId: string): Promise<LiveJob | null> {
    const { jobs } = await this.open();
    const entry = await jobs.get(jobId);
    this.counters.count('get', 1);
    return entry && entry.operation === 'PUT' ? decode(entry.value) : null;
  }

  /**
   * Reads the job, lets `decide` compute its next state, and writes it only
   * if nobody wrote in between; on a conflict it reads again and decides
   * again, so `decide` must be pure. Null when there is no such job.
   */
  async mutate<R>(jobId: string, decide: (job: LiveJob) => Mutation<R>): Promise<{ job: LiveJob; result: R; written: boolean } | null> {
    const { jobs } = await this.open();
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const entry = await jobs.get(jobId);
      this.counters.count('get', 1);
      if (!entry || entry.operation !== 'PUT') return null;
      const current = decode(entry.value);
      const { job, result } = decide(current);
      if (!job) return { job: current, result, written: false };
      try {
        await jobs.update(jobId, encode(job), entry.revision);
        this.counters.count('update', 1);
        return { job, result, written: true };
      } catch (error) {
        if (!isCasConflict(error)) throw error;
        this.counters.count('conflict', 1);
      }
    }
    throw new Error(`job ${jobId}: compare-and-set lost ${MAX_CAS_ATTEMPTS} races in a row`);
  }

  /** The account's jobs still stored, newest first. */
  async listForAccount(accountId: string, limit: number): Promise<LiveJob[]> {
    const { index } = await this.open();
    const prefix = `${accountToken(accountId)}.`;
    const ids: string[] = [];
    for await (const key of await index.keys(`${prefix}*`)) ids.push(key.slice(prefix.length));
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    return jobs
      .filter((job): job is LiveJob => job !== null)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit);
  }

  /** Started and not yet finalized: what the reconciler watches. */
  async markActive(jobId: string): Promise<void> {
    await this.connection.jetstream().publish(LIVE_JOBS.activeSubject(jobId), new Uint8Array(), { msgID: `active.${jobId}` });
    this.counters.count('active', 1);
  }

  /** Finalized: nothing left for the reconciler. A purge leaves no marker behind. */
  async markSettled(jobId: string): Promise<void> {
    const { jsm } = await this.open();
    await jsm.streams.purge(LIVE_JOBS.activeStream, { filter: LIVE_JOBS.activeSubject(jobId) });
    this.counters.count('active', 1);
  }

  async activeJobIds(): Promise<string[]> {
    const { jsm } = await this.open();
    const info = await jsm.streams.info(LIVE_JOBS.activeStream, { subjects_filter: LIVE_JOBS.activeSubject('*') });
    const prefix = LIVE_JOBS.activeSubject('');
    return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  }

  /** Opens (creating where missing) the buckets and the active-job stream; a failure is retried on the next call. */
  open(): Promise<{ jobs: KV; index: KV; jsm: JetStreamManager }> {
    this.buckets ??= this.openAll().catch((error: unknown) => {
      this.buckets = undefined;
      throw error;
    });
    return this.buckets;
  }

  private async openAll(): Promise<{ jobs: KV; index: KV; jsm: JetStreamManager }> {
    const ttl = this.config.fileRetentionSeconds * 1_000;
    const replicas = this.config.jobStoreReplicas;
    const js = this.connection.jetstream();
    const jsm = await this.connection.jetstreamManager();
    const jobs = await js.views.kv(LIVE_JOBS.jobsBucket, { history: 1, ttl, replicas });
    const index = await js.views.kv(LIVE_JOBS.indexBucket, { history: 1, ttl, replicas });
    // An existing bucket keeps the retention it was made with: follow the configured one.
    for (const bucket of [LIVE_JOBS.jobsBucket, LIVE_JOBS.indexBucket]) {
      const stream = `KV_${bucket}`;
      const info = await jsm.streams.info(stream);
      if (info.config.max_age !== nanos(ttl)) {
        await jsm.streams.update(stream, { ...info.config, max_age: nanos(ttl) });
        this.logger.log({ bucket, retentionSeconds: this.config.fileRetentionSeconds }, 'job store retention changed');
      }
    }
    await this.ensureActiveStream(jsm, replicas);
    return { jobs, index, jsm };
  }

  private async ensureActiveStream(jsm: JetStreamManager, replicas: number): Promise<void> {
    const config = {
      name: LIVE_JOBS.activeStream,
      subjects: [LIVE_JOBS.activeSubject('*')],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_msgs_per_subject: 1,
      duplicate_window: nanos(120_000),
      num_replicas: replicas,
    };
    try {
      await jsm.streams.info(config.name);
    } catch {
      await jsm.streams.add(config).catch((error: unknown) => {
        if (!(error instanceof Error && /already in use/i.test(error.message))) throw error;
      });
    }
  }
}
