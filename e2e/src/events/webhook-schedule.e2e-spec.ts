/**
 * The webhook retry schedule as the dispatcher really runs it (spec: at most
 * 5 attempts, at once, then after 30 s, 2 min, 10 min and 30 min). The
 * platform starts exactly as `make up` starts it, with no schedule variable
 * set; a receiver that always answers 500 gets each attempt. Waiting out 42
 * minutes is not a test, so the delivery log is read instead: after attempt
 * n the dispatcher records when attempt n+1 is due. For attempts 2 to 5 the
 * test writes the log a dispatcher would have written after the attempts
 * before (the attempt number comes from the log), then hands the delivery
 * over as the orchestrator does.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { JobSchema, Subjects, WebhookDeliverySchema } from '@transmute/contracts';
import { platformFixture } from '../support/platform-fixture';

const env = platformFixture({ name: 'webhook-schedule', families: [], extraEnv: { TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true' } });

/** The spec's figures, written out here, not read from the service. */
const SPEC_DELAYS_MS = [0, 30_000, 120_000, 600_000, 1_800_000];
/** Attempt n+1 is due `delay` after attempt n started, give or take the attempt's own duration and clock reads. */
const TOLERANCE_MS = 3_000;

interface StoredDelivery {
  _id: string;
  state: string;
  attempts: Array<{ attempt: number; startedAt: Date; statusCode: number }>;
  nextAttemptAt: Date | null;
}

let receiver: Server;
let receiverUrl: string;
const arrivals: Array<{ delivery: string; attempt: number; at: number }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    arrivals.push({ delivery: String(request.headers['x-service-delivery']), attempt: Number(request.headers['x-service-attempt']), at: Date.now() });
    request.resume();
    request.on('end', () => response.writeHead(500).end('not today'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

async function withStores<T>(use: (deliveries: import('mongodb').Collection<StoredDelivery>, publish: (deliveryId: string) => Promise<void>) => Promise<T>): Promise<T> {
  const { platform } = env();
  const mongo = new MongoClient(platform.env['TRANSMUTE_MONGODB_URI']!);
  const nats = await connect({ servers: platform.env['TRANSMUTE_NATS_URL'] });
  try {
    const deliveries = mongo.db().collection<StoredDelivery>('webhook_deliveries');
    const publish = async (deliveryId: string) => {
      const jobId = randomBytes(16).toString('hex');
      const delivery = create(WebhookDeliverySchema, {
        deliveryId,
        jobId,
        accountId: 'dev',
        event: 'job.finished',
        url: receiverUrl,
        job: create(JobSchema, { id: jobId, status: 'finished' }),
        createdAt: timestampNow(),
      });
      await nats.jetstream().publish(Subjects.webhooksDeliver, toBinary(WebhookDeliverySchema, delivery), { msgID: deliveryId });
    };
    return await use(deliveries, publish);
  } finally {
    await nats.close();
    await mongo.close();
  }
}

async function settledAttempt(deliveries: import('mongodb').Collection<StoredDelivery>, deliveryId: string, attempt: number): Promise<StoredDelivery> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const record = await deliveries.findOne({ _id: deliveryId });
    if (record && record.attempts.length >= attempt) return record;
    if (Date.now() > deadline) throw new Error(`attempt ${attempt} of ${deliveryId} was not recorded within 60 s: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('attempt 1 at once, then 30 s, 2 min, 10 min and 30 min, and no sixth attempt', async () => {
  await withStores(async (deliveries, publish) => {
    // Attempt 1: the delivery as the orchestrator hands it over; nothing recorded before.
    const first = randomBytes(16).toString('hex');
    const publishedAt = Date.now();
    await publish(first);
    const afterFirst = await settledAttempt(deliveries, first, 1);
    const firstArrival = arrivals.find((arrival) => arrival.delivery === first)!;
    expect(firstArrival.attempt).toBe(1);
    expect(firstArrival.at - publishedAt).toBeLessThan(10_000);
    const observed = [SPEC_DELAYS_MS[0]!, afterFirst.nextAttemptAt!.getTime() - afterFirst.attempts[0]!.startedAt.getTime()];

    // Attempts 2 to 5: the log says n-1 attempts were made and the next is due now.
    for (let attempt = 2; attempt <= 5; attempt++) {
      const deliveryId = randomBytes(16).toString('hex');
      const earlier = Array.from({ length: attempt - 1 }, (_, index) => ({
        attempt: index + 1,
        startedAt: new Date(Date.now() - 3_600_000 + index * 1_000),
        statusCode: 500,
        durationMs: 5,
        error: 'HTTP 500',
      }));
      const now = new Date();
      await deliveries.insertOne({
        _id: deliveryId,
        jobId: 'seeded',
        accountId: 'dev',
        event: 'job.finished',
        url: receiverUrl,
        state: 'pending',
        attempts: earlier,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      } as unknown as StoredDelivery);
      await publish(deliveryId);
      const record = await settledAttempt(deliveries, deliveryId, attempt);
      expect(arrivals.find((arrival) => arrival.delivery === deliveryId)?.attempt).toBe(attempt);
      if (attempt < 5) {
        expect(record.state).toBe('pending');
        observed.push(record.nextAttemptAt!.getTime() - record.attempts[attempt - 1]!.startedAt.getTime());
      } else {
        // The fifth failed attempt is the last: the delivery is settled as failed, nothing more is due.
        expect(record).toMatchObject({ state: 'failed', nextAttemptAt: null });
      }
    }
    process.stdout.write(`[webhook-schedule] observed delays (ms): ${observed.join(', ')}\n`);
    expect(observed).toHaveLength(SPEC_DELAYS_MS.length);
    observed.forEach((delay, index) => expect([index, Math.abs(delay - SPEC_DELAYS_MS[index]!) <= TOLERANCE_MS]).toEqual([index, true]));
  });
});
