/**
 * bench:throughput's seeder against real NATS (JetStream KV) and FerretDB,
 * started through devstack without the services: a job's records, wherever
 * they are, are copied under fresh ids with the same shape, and nothing else
 * is.
 */
import { MongoClient, ObjectId } from 'mongodb';
import { connect, type KV, type NatsConnection } from 'nats';
import { createInfraProvider, DATABASE_NAME, type RunningInfra } from '@transmute/devstack';
import { newJobId, openJobStoreSeeder, replaceBytes } from './store-seeder';

const TEMPLATE = newJobId();
const OTHER = newJobId();
const SEEDED = 2_500; // more than one write batch

let infra: RunningInfra;
let nc: NatsConnection;
let kv: KV;
let mongo: MongoClient;

type StringKeyed = { _id: string; [field: string]: unknown };
const jobRecord = (id: string) => ({ id, status: 'finished', tasks: [{ name: 'convert', key: `jobs/${id}/convert/out.jpg` }], endedAt: '2026-11-26T12:00:00.000Z' });

beforeAll(async () => {
  infra = await createInfraProvider().start();
  nc = await connect({ servers: infra.natsUrl });
  kv = await nc.jetstream().views.kv('bench_seeder_jobs');
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  await kv.put(`job.${TEMPLATE}`, encode(jobRecord(TEMPLATE)));
  await kv.put(`job.${OTHER}`, encode(jobRecord(OTHER)));
  mongo = new MongoClient(`${infra.mongoUri}${DATABASE_NAME}`);
  const db = mongo.db();
  await db.collection<StringKeyed>('jobs').insertMany([
    { _id: TEMPLATE, status: 'finished', createdAt: new Date('2026-11-26T11:00:00Z') },
    { _id: OTHER, status: 'finished', createdAt: new Date('2026-11-26T11:00:00Z') },
  ]);
  await db.collection<StringKeyed>('tasks').insertOne({ _id: `${TEMPLATE}/convert`, jobId: TEMPLATE, attempt: 1 });
  await db.collection('deliveries').insertOne({ _id: new ObjectId(), jobId: TEMPLATE, event: 'job.finished' });
}, 60_000);

afterAll(async () => {
  await nc?.drain();
  await mongo?.close();
  await infra?.stop();
});

test('replaceBytes swaps every occurrence of an id of the same length', () => {
  const bytes = new TextEncoder().encode(`{"id":"${TEMPLATE}","key":"jobs/${TEMPLATE}/x"}`);
  expect(new TextDecoder().decode(replaceBytes(bytes, TEMPLATE, OTHER))).toBe(`{"id":"${OTHER}","key":"jobs/${OTHER}/x"}`);
  expect(() => replaceBytes(bytes, TEMPLATE, 'short')).toThrow(/equally long/);
});

test('copies every record of the template job, in KV and in every collection, under fresh ids', async () => {
  const seeder = await openJobStoreSeeder(infra.natsUrl, `${infra.mongoUri}${DATABASE_NAME}`);
  try {
    await seeder.prepare(TEMPLATE);
    expect(seeder.describe().split('; ').sort()).toEqual([
      '1 x KV bench_seeder_jobs key job.<id> (' + JSON.stringify(jobRecord(TEMPLATE)).length + ' bytes)',
      '1 x MongoDB deliveries document',
      '1 x MongoDB jobs document',
      '1 x MongoDB tasks document',
    ]);
    const progress: number[] = [];
    await seeder.seed(SEEDED, (written) => progress.push(written));
    expect(progress[progress.length - 1]).toBe(SEEDED);
  } finally {
    await seeder.close();
  }

  expect((await kv.status()).values).toBe(2 + SEEDED);
  const db = mongo.db();
  expect(await db.collection('jobs').countDocuments()).toBe(2 + SEEDED);
  expect(await db.collection('tasks').countDocuments()).toBe(1 + SEEDED);
  expect(await db.collection('deliveries').countDocuments()).toBe(1 + SEEDED);

  // A seeded job: its records agree on one new id and keep the template's shape.
  const task = await db.collection<{ _id: string; jobId: string; attempt: number }>('tasks').findOne({ _id: { $ne: `${TEMPLATE}/convert` } });
  const id = task!.jobId;
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  expect(id).not.toBe(TEMPLATE);
  expect(task).toEqual({ _id: `${id}/convert`, jobId: id, attempt: 1 });
  expect(await db.collection<{ _id: string }>('jobs').findOne({ _id: id })).toEqual({ _id: id, status: 'finished', createdAt: new Date('2026-11-26T11:00:00Z') });
  const entry = await kv.get(`job.${id}`);
  expect(JSON.parse(new TextDecoder().decode(entry!.value))).toEqual(jobRecord(id));
});
