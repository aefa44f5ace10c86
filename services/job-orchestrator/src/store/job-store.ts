import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type JetStreamManager, type NatsConnection, nanos } from 'nats';
import { LIVE_JOBS } from '@transmute/contracts';
import { JetStreamSetup, KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import type { LiveJob } from './live-job';
import { StoreCounters } from './store-counters';

/** Account ids may hold characters a KV key may not. */
const accountToken = (accountId: string) => Buffer.from(accountId).toString('hex') || '00';

/** Jobs whose last entry this replica keeps; more than run at once on any replica. */
const LAST_SEEN_JOBS = 2_000;

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
 *
 * The replica keeps the entry it last wrote or read of each recent job, and
 * decides a job's next step on it without reading the key again: the
 * compare-and-set refuses it when another replica wrote in between (see
 * KvBucket.mutate), so a step that follows this replica's own write costs
 * one write instead of a read and a write.
 */
@Injectable()
export class JobStore implements OnApplicationBootstrap {
  private readonly jobs: KvBucket<LiveJob>;
  private readonly index: KvBucket<Uint8Array>;
  private opened?: Promise<JetStreamManager>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) config: Pick<OrchestratorConfig, 'fileRetentionSeconds' | 'natsReplicas'>,
    private readonly setup: JetStreamSetup,
    private readonly counters: StoreCounters,
    private readonly readiness: ReadinessRegistry,
  ) {
    // Records expire with the files; a changed retention applies to the existing buckets when they open.
    const ttlMs = config.fileRetentionSeconds * 1_000;
    const replicas = config.natsReplicas;
    this.jobs = new KvBucket(connection, { name: LIVE_JOBS.jobsBucket, ttlMs, replicas }, KvCodecs.json<LiveJob>(), { lastSeenKeys: LAST_SEEN_JOBS });
    this.index = new KvBucket(connection, { name: LIVE_JOBS.indexBucket, ttlMs, replicas }, KvCodecs.bytes);
  }

  onApplicationBootstrap(): void {
    this.readiness.register('job-store', () =>
      this.open().then(
        () => true,
        () => false,
      ),
    );
  }

  async create(job: LiveJob): Promise<void> {
    await this.open();
    if ((await this.jobs.create(job.id, job)) === null) throw new Error(`job ${job.id} exists already`);
    await this.index.put(`${accountToken(job.accountId)}.${job.id}`, new Uint8Array());
    this.counters.count('create', 2);
  }

  async get(jobId: string): Promise<LiveJob | null> {
    const entry = await this.jobs.get(jobId);
    this.counters.count('get', 1);
    return entry?.value ?? null;
  }

  /** The job as this replica last read or wrote it, without a read; undefined when it keeps none. May be older than the store. */
  kept(jobId: string): LiveJob | undefined {
    return this.jobs.kept(jobId)?.value;
  }

  /**
   * Reads the job, lets `decide` compute its next state, and writes it only
   * if nobody wrote in between; on a conflict it reads again and decides
   * again, so `decide` must be pure. Null when there is no such job. One
   * job's changes on this replica run one after another.
   */
  async mutate<R>(jobId: string, decide: (job: LiveJob) => Mutation<R>): Promise<{ job: LiveJob; result: R; written: boolean } | null> {
    const outcome = await this.jobs.mutate<{ decided: Mutation<R> } | null>(jobId, (entry) => {
      if (!entry) return { result: null };
      const decided = decide(entry.value);
      return decided.job ? { write: decided.job, result: { decided } } : { result: { decided } };
    });
    this.counters.count('get', outcome.reads);
    this.counters.count('conflict', outcome.conflicts);
    if (!outcome.result || !outcome.entry) return null;
    if (outcome.written) this.counters.count('update', 1);
    return { job: outcome.entry.value, result: outcome.result.decided.result, written: outcome.written };
  }

  /** The account's jobs still stored, newest first. */
  async listForAccount(accountId: string, limit: number): Promise<LiveJob[]> {
    const prefix = `${accountToken(accountId)}.`;
    const ids = (await this.index.keys(`${prefix}*`)).map((key) => key.slice(prefix.length));
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    return jobs
      .filter((job): job is LiveJob => job !== null)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit);
  }

  /** Started and not yet finalized: what the reconciler watches. */
  async markActive(jobId: string): Promise<void> {
    await this.open();
    await this.connection.jetstream().publish(LIVE_JOBS.activeSubject(jobId), new Uint8Array(), { msgID: `active.${jobId}` });
    this.counters.count('active', 1);
  }

  /** Finalized: nothing left for the reconciler. A purge leaves no marker behind. */
  async markSettled(jobId: string): Promise<void> {
    const jsm = await this.open();
    await jsm.streams.purge(LIVE_JOBS.activeStream, { filter: LIVE_JOBS.activeSubject(jobId) });
    this.counters.count('active', 1);
  }

  async activeJobIds(): Promise<string[]> {
    const jsm = await this.open();
    const info = await jsm.streams.info(LIVE_JOBS.activeStream, { subjects_filter: LIVE_JOBS.activeSubject('*') });
    const prefix = LIVE_JOBS.activeSubject('');
    return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  }

  /** Opens (creating where missing) the buckets and the active-job stream, once; a failure is retried on the next call. */
  open(): Promise<JetStreamManager> {
    this.opened ??= (async () => {
      await Promise.all([this.jobs.open(), this.index.open()]);
      await this.setup.ensureLimitsStream({
        name: LIVE_JOBS.activeStream,
        subjects: [LIVE_JOBS.activeSubject('*')],
        max_msgs_per_subject: 1,
        duplicate_window: nanos(120_000),
      });
      return this.connection.jetstreamManager();
    })().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }
}
