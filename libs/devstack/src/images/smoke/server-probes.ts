import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { MongoClient } from 'mongodb';
import { connect, StorageType, StringCodec } from 'nats';
import { LOOPBACK } from '../../net/free-ports';

/**
 * Proofs that a server image does its job, beyond answering a health check:
 * each writes through the server's real protocol and reads the same bytes
 * back, which also proves that the server's user can write its data volume.
 */

/** A JetStream stream on the file store (/data): publish, then read the message back. */
export async function provesNatsJetStream(port: number): Promise<void> {
  const nc = await connect({ servers: `nats://${LOOPBACK}:${port}`, timeout: 5_000 });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'SMOKE', subjects: ['smoke.>'] });
    const text = `smoke ${randomBytes(8).toString('hex')}`;
    const ack = await nc.jetstream().publish('smoke.check', StringCodec().encode(text));
    const stored = await jsm.streams.getMessage('SMOKE', { seq: ack.seq });
    if (stored.string() !== text) throw new Error(`JetStream returned "${stored.string()}" for "${text}"`);
    const info = await jsm.streams.info('SMOKE');
    if (info.config.storage !== StorageType.File) throw new Error(`stream storage is ${info.config.storage}, expected file`);
  } finally {
    await nc.close();
  }
}

/** A document inserted over the MongoDB wire protocol and found again (SQLite under /data). */
export async function provesFerretDbStore(port: number): Promise<void> {
  const client = new MongoClient(`mongodb://${LOOPBACK}:${port}/`, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    const collection = client.db('smoke').collection<{ _id: string; text: string }>('checks');
    const text = randomBytes(8).toString('hex');
    await collection.insertOne({ _id: text, text });
    const found = await collection.findOne({ _id: text });
    if (found?.text !== text) throw new Error(`FerretDB returned ${JSON.stringify(found)} for ${text}`);
  } finally {
    await client.close();
  }
}

/** A bucket, an object written and read back over S3, and no other bucket. */
export async function provesMinioObjects(port: number, credentials: { accessKeyId: string; secretAccessKey: string }): Promise<void> {
  const s3 = new S3Client({ endpoint: `http://${LOOPBACK}:${port}`, region: 'us-east-1', forcePathStyle: true, credentials });
  try {
    const body = randomBytes(64 * 1024);
    await s3.send(new CreateBucketCommand({ Bucket: 'smoke' }));
    await s3.send(new PutObjectCommand({ Bucket: 'smoke', Key: 'check.bin', Body: body }));
    const got = Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: 'smoke', Key: 'check.bin' }))).Body!.transformToByteArray());
    if (!got.equals(body)) throw new Error(`MinIO returned ${got.length} bytes that differ from the ${body.length} written`);
    // HOME is the data directory (MinIO keeps .minio/certs there): it must not show up as a bucket.
    const buckets = ((await s3.send(new ListBucketsCommand({}))).Buckets ?? []).map((bucket) => bucket.Name);
    if (buckets.join() !== 'smoke') throw new Error(`MinIO lists buckets ${JSON.stringify(buckets)}, expected only "smoke"`);
  } finally {
    s3.destroy();
  }
}
