import { type Server, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { type Connection, createConnection } from 'mongoose';
import { type NatsConnection, connect } from 'nats';
import { register } from 'prom-client';
import { JobSchema, SigningSecretReplySchema, type SigningSecretRequest, SigningSecretRequestSchema, Subjects, WebhookDeliverySchema } from '@transmute/contracts';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { RpcHandler, connectRpcServer } from '@transmute/messaging';
import { loadConfig } from '@transmute/service-kit';
import { AppModule } from '../src/app.module';
import { dispatcherConfig } from '../src/config';

/**
 * The side effect that happened is not repeated: the receiver answers 200,
 * but the store dies at that moment, so the delivery log cannot take the
 * attempt. The attempt journal keeps it, the log is written when the store
 * is back, and the receiver never gets the delivery a second time.
 */

/** Stands in for the gateway's accounts module: the one request the dispatcher makes of it. */
@Controller()
class SigningSecretsStandIn {
  @RpcHandler(Subjects.accountsSigningSecret, SigningSecretRequestSchema, SigningSecretReplySchema)
  secret(_request: SigningSecretRequest): Promise<string> {
    return Promise.resolve(`whsec_${'a'.repeat(64)}`);
  }
}

let infra: RunningInfra;
let accounts: INestApplication;
let dispatcher: INestApplication;
let receiver: Server;
let receiverUrl: string;
let nc: NatsConnection;
let store: Connection;
/** POSTs the receiver got, by X-Service-Delivery. */
const received = new Map<string, number>();
/** Set while the next POST should find the store dying as it is answered. */
let storeDown: Promise<void> | undefined;
let killStoreOnNextPost = false;

beforeAll(async () => {
  infra = await createInfraProvider().start();
  nc = await connect({ servers: infra.natsUrl });

  // Only the RPC server: one process has one metrics registry, which the dispatcher's own module takes.
  @Module({ controllers: [SigningSecretsStandIn] })
  class AccountsStandIn {}
  accounts = await NestFactory.create(AccountsStandIn, { logger: false });
  await connectRpcServer(accounts, { url: infra.natsUrl, queue: 'gateway' });
  await accounts.init();

  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['x-service-delivery']);
      received.set(id, (received.get(id) ?? 0) + 1);
      if (killStoreOnNextPost) {
        killStoreOnNextPost = false;
        // Long enough that the log write fails (5 s server selection, 10 s of mongoose buffering), not merely waits.
        storeDown = infra.restart('store', { downMs: 20_000 });
        // Answer once the store is gone: the receiver has the delivery, the log cannot have it.
        setTimeout(() => response.writeHead(200).end('ok'), 300);
        return;
      }
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const config = loadConfig(dispatcherConfig, {
    TRANSMUTE_NATS_URL: infra.natsUrl,
    TRANSMUTE_MONGODB_URI: `${infra.mongoUri}dispatcher_it`,
    TRANSMUTE_HTTP_PORT: '0',
    TRANSMUTE_LOG_LEVEL: 'error',
    TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true',
    TRANSMUTE_WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,2000',
    TRANSMUTE_WEBHOOK_TIMEOUT_MS: '5000',
  });
  dispatcher = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  await connectRpcServer(dispatcher, { url: infra.natsUrl, queue: 'webhook-dispatcher' });
  await dispatcher.init();
  store = await createConnection(`${infra.mongoUri}dispatcher_it`).asPromise();
}, 120_000);

afterAll(async () => {
  await dispatcher?.close();
  await accounts?.close();
  await store?.close();
  await nc?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await infra?.stop();
});

async function send(deliveryId: string): Promise<void> {
  const delivery = create(WebhookDeliverySchema, {
    deliveryId,
    jobId: `job-${deliveryId}`,
    accountId: 'acme',
    event: 'job.finished',
    url: receiverUrl,
    job: create(JobSchema, { id: `job-${deliveryId}`, status: 'finished' }),
    createdAt: timestampNow(),
  });
  await nc.jetstream().publish(Subjects.webhooksDeliver, toBinary(WebhookDeliverySchema, delivery), { msgID: deliveryId });
}

async function logged(deliveryId: string): Promise<{ state: string; attempts: unknown[] } | null> {
  return store.collection<{ _id: string; state: string; attempts: unknown[] }>('webhook_deliveries').findOne({ _id: deliveryId });
}

async function until<T>(read: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function journaled(): Promise<number> {
  const metric = await register.getSingleMetric('transmute_webhook_attempts_journaled_total')!.get();
  return metric.values[0]?.value ?? 0;
}

it('delivers once and logs it, the usual way', async () => {
  await send('a'.repeat(32));
  const record = await until(async () => (await logged('a'.repeat(32)))?.state === 'delivered' && logged('a'.repeat(32)), 'the log');
  expect(record.attempts).toHaveLength(1);
  expect(received.get('a'.repeat(32))).toBe(1);
  expect(await journaled()).toBe(0);
});

it('never sends an accepted delivery again because its log write failed: the journal keeps it until the store is back', async () => {
  const id = 'b'.repeat(32);
  killStoreOnNextPost = true;
  await send(id);
  await until(async () => received.get(id), 'the first POST');
  // The attempt went into the journal, not the log.
  await until(async () => (await journaled()) === 1, 'the journal to take the attempt', 60_000);
  await storeDown;
  const record = await until(async () => (await logged(id))?.state === 'delivered' && logged(id), 'the log to take the journaled attempt', 90_000);
  expect(record.attempts).toHaveLength(1);
  // Time for any repeat to show: the schedule's steps are 1 s and 2 s, the not-attempted retry 5 s.
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  expect(received.get(id)).toBe(1);
  const journal = await nc.jetstream().views.kv('webhook_attempt_journal', { bindOnly: true });
  expect(await journal.get(id).then((entry) => entry?.operation)).not.toBe('PUT');
}, 240_000);
