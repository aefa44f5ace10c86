import { randomBytes } from 'node:crypto';
import { type Document, MongoClient } from 'mongodb';

/** A stored record keyed by a string id, as the orchestrator keys jobs and tasks. */
type Stored = Document & { _id: string };

/**
 * Fills the orchestrator's job store with stored jobs, through the store's
 * own client API, as fast as it takes them. Each seeded job is a copy of a
 * job the orchestrator itself stored (the benchmark's warm-up job) under a
 * fresh id, so the records have exactly the orchestrator's shape without this
 * file repeating it.
 */
export interface JobStoreSeeder {
  /** What is written where, for the report. */
  readonly description: string;
  /** Jobs held by the store now. */
  count(): Promise<number>;
  /** Writes `total` copies of the stored job `templateJobId`; `progress` gets the running count. */
  seed(templateJobId: string, total: number, progress: (written: number) => void): Promise<void>;
  close(): Promise<void>;
}

export const newJobId = (): string => randomBytes(16).toString('hex');

/** `value` with every occurrence of `from` inside its strings replaced by `to` (keys, Dates and numbers kept). */
export function replaceJobId<T>(value: T, from: string, to: string): T {
  if (typeof value === 'string') return value.split(from).join(to) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceJobId(item, from, to)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceJobId(item, from, to)])) as T;
  }
  return value;
}

const BATCH = 1_000;

/**
 * The store before the JetStream KV change: mongoose on FerretDB, one `jobs`
 * document per job and one `tasks` document per task (`<jobId>/<name>`).
 */
export class FerretJobSeeder implements JobStoreSeeder {
  readonly description: string;
  private readonly client: MongoClient;

  constructor(mongoUri: string) {
    this.description = `FerretDB ${mongoUri.replace(/\/\/[^@]*@/, '//')}: collections jobs + tasks, insertMany of ${BATCH}`;
    this.client = new MongoClient(mongoUri, { serverSelectionTimeoutMS: 10_000 });
  }

  private get db() {
    return this.client.db();
  }

  async count(): Promise<number> {
    return this.db.collection('jobs').countDocuments();
  }

  async seed(templateJobId: string, total: number, progress: (written: number) => void): Promise<void> {
    const job = await this.db.collection<Stored>('jobs').findOne({ _id: templateJobId });
    if (!job) throw new Error(`job ${templateJobId} is not in the jobs collection`);
    const order = (job['taskOrder'] as string[] | undefined) ?? [];
    const tasks = await this.db.collection<Stored>('tasks').find({ _id: { $in: order.map((name) => `${templateJobId}/${name}`) } }).toArray();
    let written = 0;
    while (written < total) {
      const ids = Array.from({ length: Math.min(BATCH, total - written) }, newJobId);
      await this.db.collection<Stored>('jobs').insertMany(ids.map((id) => replaceJobId(job, templateJobId, id)), { ordered: false });
      if (tasks.length > 0) await this.db.collection<Stored>('tasks').insertMany(ids.flatMap((id) => tasks.map((task) => replaceJobId(task, templateJobId, id))), { ordered: false });
      written += ids.length;
      progress(written);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
