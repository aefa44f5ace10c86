import { randomBytes } from 'node:crypto';
import { type Document, type Filter, MongoClient, ObjectId } from 'mongodb';
import { connect, type KV, type NatsConnection } from 'nats';

/**
 * Fills the orchestrator's job store with stored jobs, through the stores'
 * own client APIs, as fast as they take them. Each seeded job is a copy of a
 * job the orchestrator itself stored (the benchmark's warm-up job) under a
 * fresh id: every record that holds that job's id, in every JetStream KV
 * bucket and every MongoDB collection, is written again with the id
 * replaced. The records so have exactly the shape the orchestrator writes,
 * whichever store holds them, without this file repeating that shape.
 */
export interface JobStoreSeeder {
  /** Finds every record of the stored job `templateJobId`; fails when there is none. */
  prepare(templateJobId: string): Promise<void>;
  /** Where the template's records were found, for the report. */
  describe(): string;
  /** How many records each place that holds them has now. */
  holdings(): Promise<string>;
  /** Writes `total` copies of the template job; `progress` gets the running count. */
  seed(total: number, progress: (written: number) => void): Promise<void>;
  close(): Promise<void>;
}

/** One store (a KV server or a database) holding some of a job's records. */
interface RecordStore {
  /** Finds the template job's records; returns how many there are. */
  load(templateJobId: string): Promise<number>;
  /** Writes the template's records once per id. */
  write(ids: string[]): Promise<void>;
  holdings(): Promise<string[]>;
  describe(): string[];
  close(): Promise<void>;
}

export const newJobId = (): string => randomBytes(16).toString('hex');

/** `value` with every occurrence of `from` inside its strings replaced by `to` (keys, Dates, ObjectIds and numbers kept). */
export function replaceJobId<T>(value: T, from: string, to: string): T {
  if (typeof value === 'string') return value.split(from).join(to) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceJobId(item, from, to)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceJobId(item, from, to)])) as T;
  }
  return value;
}

/** `bytes` with every occurrence of `from` replaced by `to` (same length: ids are 32 hex characters), for JSON and protobuf values alike. */
export function replaceBytes(bytes: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('replaceBytes keeps lengths: ids must be equally long');
  const out = Buffer.from(bytes);
  const needle = Buffer.from(from);
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + needle.length)) out.write(to, at, 'latin1');
  return out;
}

const KV_IN_FLIGHT = 512;
const MONGO_BATCH = 1_000;

/** Every JetStream KV bucket: records are the keys (and values) that hold the job id. */
class KvRecords implements RecordStore {
  private templates: Array<{ kv: KV; bucket: string; key: string; value: Uint8Array }> = [];
  private templateId = '';

  private constructor(private readonly nc: NatsConnection) {}

  static async open(natsUrl: string): Promise<KvRecords> {
    return new KvRecords(await connect({ servers: natsUrl, name: 'bench-throughput-seeder' }));
  }

  private async buckets(): Promise<Array<{ bucket: string; kv: KV }>> {
    const jsm = await this.nc.jetstreamManager();
    const found: Array<{ bucket: string; kv: KV }> = [];
    for await (const stream of jsm.streams.names()) {
      if (!stream.startsWith('KV_')) continue;
      const bucket = stream.slice(3);
      found.push({ bucket, kv: await this.nc.jetstream().views.kv(bucket, { bindOnly: true }) });
    }
    return found;
  }

  async load(templateJobId: string): Promise<number> {
    this.templateId = templateJobId;
    for (const { bucket, kv } of await this.buckets()) {
      const keys: string[] = [];
      for await (const key of await kv.keys()) if (key.includes(templateJobId)) keys.push(key);
      for (const key of keys) {
        const entry = await kv.get(key);
        if (entry && entry.operation === 'PUT') this.templates.push({ kv, bucket, key, value: entry.value });
      }
    }
    return this.templates.length;
  }

  async write(ids: string[]): Promise<void> {
    const puts = ids.flatMap((id) => this.templates.map((t) => () => t.kv.put(t.key.split(this.templateId).join(id), replaceBytes(t.value, this.templateId, id))));
    for (let at = 0; at < puts.length; at += KV_IN_FLIGHT) await Promise.all(puts.slice(at, at + KV_IN_FLIGHT).map((put) => put()));
  }

  async holdings(): Promise<string[]> {
    const buckets = [...new Map(this.templates.map((t) => [t.bucket, t.kv]))];
    return Promise.all(buckets.map(async ([bucket, kv]) => `KV ${bucket}: ${(await kv.status()).values} entries`));
  }

  describe(): string[] {
    return this.templates.map((t) => `KV ${t.bucket} key ${t.key.split(this.templateId).join('<id>')} (${t.value.length} bytes)`);
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

type Stored = Document & { _id: string | ObjectId };

/** Every collection of the platform's database: records are documents whose _id starts with the job id, or whose jobId is it. */
class MongoRecords implements RecordStore {
  private templates: Array<{ collection: string; doc: Stored }> = [];
  private templateId = '';

  constructor(private readonly client: MongoClient) {}

  async load(templateJobId: string): Promise<number> {
    this.templateId = templateJobId;
    const db = this.client.db();
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      const docs = await db
        .collection<Stored>(name)
        .find({ $or: [{ _id: templateJobId }, { _id: { $regex: new RegExp(`^${templateJobId}/`) } }, { jobId: templateJobId }] } as Filter<Stored>)
        .toArray();
      this.templates.push(...docs.map((doc) => ({ collection: name, doc })));
    }
    return this.templates.length;
  }

  async write(ids: string[]): Promise<void> {
    const db = this.client.db();
    for (const collection of new Set(this.templates.map((t) => t.collection))) {
      const docs = this.templates.filter((t) => t.collection === collection);
      const copies = ids.flatMap((id) =>
        docs.map(({ doc }) => {
          const copy = replaceJobId(doc, this.templateId, id);
          // A document keyed by its own ObjectId (a log entry that names the job) needs a new one.
          return doc._id instanceof ObjectId ? { ...copy, _id: new ObjectId() } : copy;
        }),
      );
      for (let at = 0; at < copies.length; at += MONGO_BATCH) await db.collection<Stored>(collection).insertMany(copies.slice(at, at + MONGO_BATCH), { ordered: false });
    }
  }

  async holdings(): Promise<string[]> {
    const collections = [...new Set(this.templates.map((t) => t.collection))];
    return Promise.all(collections.map(async (name) => `MongoDB ${name}: ${await this.client.db().collection(name).estimatedDocumentCount()} documents`));
  }

  describe(): string[] {
    return this.templates.map((t) => `MongoDB ${t.collection} document`);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The seeder over whichever of NATS and MongoDB the platform's store uses. */
export async function openJobStoreSeeder(natsUrl: string | undefined, mongoUri: string | undefined): Promise<JobStoreSeeder> {
  const stores: RecordStore[] = [];
  if (natsUrl) stores.push(await KvRecords.open(natsUrl));
  if (mongoUri) stores.push(new MongoRecords(new MongoClient(mongoUri, { serverSelectionTimeoutMS: 10_000 })));
  return {
    describe: () => {
      const lines = stores.flatMap((store) => store.describe());
      const counts = new Map<string, number>();
      for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
      return [...counts].map(([line, count]) => `${count} x ${line}`).join('; ') || 'nothing';
    },
    holdings: async () => (await Promise.all(stores.map((store) => store.holdings()))).flat().join('; '),
    prepare: async (templateJobId) => {
      const found = (await Promise.all(stores.map((store) => store.load(templateJobId)))).reduce((sum, count) => sum + count, 0);
      if (found === 0) throw new Error(`no record of job ${templateJobId} in any KV bucket or collection`);
    },
    seed: async (total, progress) => {
      for (let written = 0; written < total;) {
        const ids = Array.from({ length: Math.min(MONGO_BATCH, total - written) }, newJobId);
        await Promise.all(stores.map((store) => store.write(ids)));
        written += ids.length;
        progress(written);
      }
    },
    close: async () => {
      await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
    },
  };
}
