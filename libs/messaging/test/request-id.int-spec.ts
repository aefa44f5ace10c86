import { Writable } from 'node:stream';
import { Controller, Get, type INestApplication, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { create, fromBinary } from '@bufbuild/protobuf';
import { Logger as PinoLogger } from 'nestjs-pino';
import { connect } from 'nats';
import { ServiceFailure, type SigningSecretRequest, SigningSecretReplySchema, SigningSecretRequestSchema, type WorkStreamDefinition } from '@transmute/contracts';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { ServiceKitModule, baseConfig, currentRequestId, loadConfig, runWithRequestId } from '@transmute/service-kit';
import { type ConsumerRunner } from '../src/consumer/consumer-runner';
import { ConsumerRunners } from '../src/consumer/consumer-runners';
import { Settle } from '../src/consumer/settlement';
import { NatsModule } from '../src/nats.module';
import { RpcClient, RpcHandler, connectRpcServer } from '../src/rpc';
import { WorkPublisher } from '../src/work-publisher';

/*
 * One request id from the HTTP edge (or an RPC caller) through a NATS
 * request, into the replier's log lines, and on through a JetStream publish
 * into the consumer that handles it: real NATS, real NestJS transport.
 */

const SUBJECT = 'it.rid.lookup';
const stream: WorkStreamDefinition = { name: 'IT_RID', subjects: ['it.rid.work'], duplicateWindowMs: 60_000 };
const consumer = { stream, durable: 'it-rid', filterSubject: 'it.rid.work', ackWaitMs: 5_000, maxDeliver: 3 };

const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
/** Request ids the JetStream consumer saw, by the account id in the message. */
const consumed = new Map<string, string | undefined>();

@Controller()
class ProbeController {
  private readonly logger = new Logger('Probe');

  constructor(
    private readonly rpc: RpcClient,
    private readonly publisher: WorkPublisher,
  ) {}

  /** Logs, publishes work, and answers the request id it runs under. */
  @RpcHandler(SUBJECT, SigningSecretRequestSchema, SigningSecretReplySchema)
  async lookup({ accountId }: SigningSecretRequest): Promise<string> {
    this.logger.log(`looking up ${accountId}`);
    if (accountId === 'missing') throw ServiceFailure.notFound(`no account ${accountId}`);
    await this.publisher.publish('it.rid.work', SigningSecretRequestSchema, create(SigningSecretRequestSchema, { accountId }), `work-${accountId}`);
    return currentRequestId() ?? '';
  }

  @Get('probe')
  async probe(): Promise<{ seen: string }> {
    const request = create(SigningSecretRequestSchema, { accountId: `http-${logLines.length}` });
    return { seen: await this.rpc.request(SUBJECT, SigningSecretRequestSchema, request, SigningSecretReplySchema) };
  }
}

let infra: RunningInfra;
let app: INestApplication;
let baseUrl: string;
let worker: ConsumerRunner<SigningSecretRequest>;
let rpc: RpcClient;

beforeAll(async () => {
  infra = await createInfraProvider().start();
  const config = loadConfig(baseConfig(0), {
    TRANSMUTE_NATS_URL: infra.natsUrl,
    TRANSMUTE_HTTP_PORT: '0',
    TRANSMUTE_LOG_LEVEL: 'debug',
    TRANSMUTE_SHUTDOWN_GRACE_MS: '1000',
  });
  @Module({
    imports: [ServiceKitModule.forRoot({ serviceName: 'it-rid', config, logDestination: sink }), NatsModule.forRoot({ url: infra.natsUrl, name: 'it-rid' })],
    controllers: [ProbeController],
  })
  class ProbeModule {}
  app = await NestFactory.create(ProbeModule, { bufferLogs: true });
  app.useLogger(app.get(PinoLogger));
  await connectRpcServer(app, { url: infra.natsUrl, queue: 'it-rid' });
  await app.listen(0, '127.0.0.1');
  baseUrl = await app.getUrl();
  rpc = app.get(RpcClient);

  const consumerLogger = new Logger('Consumer');
  worker = await app.get(ConsumerRunners).start<SigningSecretRequest>({
    consumer,
    concurrency: 1,
    decode: (data) => fromBinary(SigningSecretRequestSchema, data),
    handle: async ({ value }) => {
      consumerLogger.log(`working on ${value.accountId}`);
      consumed.set(value.accountId, currentRequestId());
      return Settle.ack();
    },
    onError: () => Settle.retry(100),
    deadLetter: ({ seq, reason }) => ({ id: `it-rid.${seq}`, source: 'it-rid', kind: 'test', error: reason }),
  });
});

afterAll(async () => {
  await worker?.stop(1_000);
  await app?.close();
  await infra?.stop();
});

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const linesWith = (message: string) => logLines.filter((line) => line.message === message);

describe('request id propagation over NATS', () => {
  it('carries the caller request id into the RPC handler, its logs, a JetStream publish and its consumer', async () => {
    const request = create(SigningSecretRequestSchema, { accountId: 'acme' });
    const seen = await runWithRequestId('req-rpc-1', () => rpc.request(SUBJECT, SigningSecretRequestSchema, request, SigningSecretReplySchema));
    expect(seen).toBe('req-rpc-1');
    expect(linesWith('looking up acme')).toEqual([expect.objectContaining({ requestId: 'req-rpc-1', service: 'it-rid' })]);
    expect(await until(() => consumed.get('acme'), 'the consumer')).toBe('req-rpc-1');
    expect(await until(() => linesWith('working on acme')[0], 'the consumer log line')).toMatchObject({ requestId: 'req-rpc-1' });
  });

  it('gives a request without an id a fresh one in the handler', async () => {
    const request = create(SigningSecretRequestSchema, { accountId: 'anonymous' });
    const seen = await rpc.request(SUBJECT, SigningSecretRequestSchema, request, SigningSecretReplySchema);
    expect(seen).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesWith('looking up anonymous')[0]).toMatchObject({ requestId: seen });
  });

  it('returns a handler failure to the caller as its ServiceFailure, logged under the request id', async () => {
    const request = create(SigningSecretRequestSchema, { accountId: 'missing' });
    const call = runWithRequestId('req-missing', () => rpc.request(SUBJECT, SigningSecretRequestSchema, request, SigningSecretReplySchema));
    await expect(call).rejects.toMatchObject({ name: 'ServiceFailure', message: 'no account missing' });
    expect(linesWith('looking up missing')[0]).toMatchObject({ requestId: 'req-missing' });
  });

  it('answers UNAVAILABLE with the given message when nobody serves the subject', async () => {
    const request = create(SigningSecretRequestSchema, { accountId: 'acme' });
    const call = rpc.request('it.rid.nobody', SigningSecretRequestSchema, request, SigningSecretReplySchema, { timeoutMs: 500, unavailable: 'nobody is home' });
    await expect(call).rejects.toMatchObject({ name: 'ServiceFailure', message: 'nobody is home', retryable: true });
  });

  it('fails a request nobody serves at once (no responders), not at the end of its timeout', async () => {
    const request = create(SigningSecretRequestSchema, { accountId: 'acme' });
    // Longer than the test's own limit: only the server's "no responders" can end this call in time.
    const call = rpc.request('it.rid.nobody', SigningSecretRequestSchema, request, SigningSecretReplySchema, { timeoutMs: 60_000, unavailable: 'nobody is home' });
    await expect(call).rejects.toMatchObject({ message: 'nobody is home', retryable: true, cause: expect.objectContaining({ code: '503' }) });
  });

  it('answers UNAVAILABLE when a replier takes longer than the timeout', async () => {
    const listener = await connect({ servers: infra.natsUrl });
    listener.subscribe('it.rid.silent');
    await listener.flush();
    try {
      const request = create(SigningSecretRequestSchema, { accountId: 'acme' });
      const call = rpc.request('it.rid.silent', SigningSecretRequestSchema, request, SigningSecretReplySchema, { timeoutMs: 300, unavailable: 'too slow' });
      await expect(call).rejects.toMatchObject({ message: 'too slow', retryable: true, cause: expect.objectContaining({ code: 'TIMEOUT' }) });
    } finally {
      await listener.close();
    }
  });

  it('answers concurrent requests each with its own reply through the one shared inbox', async () => {
    const ids = Array.from({ length: 50 }, (_, index) => `req-many-${index}`);
    const seen = await Promise.all(
      ids.map((id, index) =>
        runWithRequestId(id, () => rpc.request(SUBJECT, SigningSecretRequestSchema, create(SigningSecretRequestSchema, { accountId: `many-${index}` }), SigningSecretReplySchema)),
      ),
    );
    expect(seen).toEqual(ids);
  });
});

describe('request id at the HTTP edge', () => {
  it('takes a valid incoming X-Request-Id, echoes it and sends it over NATS', async () => {
    const response = await fetch(`${baseUrl}/probe`, { headers: { 'X-Request-Id': 'client-chosen-42' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('client-chosen-42');
    expect(await response.json()).toEqual({ seen: 'client-chosen-42' });
    expect(logLines.some((line) => line.requestId === 'client-chosen-42' && String(line.message).startsWith('looking up http-'))).toBe(true);
  });

  it.each([
    ['has spaces and a quote', 'bad id"'],
    ['is too long', 'x'.repeat(65)],
  ])('replaces an incoming id that %s with a fresh one', async (_name, given) => {
    const response = await fetch(`${baseUrl}/probe`, { headers: { 'X-Request-Id': given } });
    const echoed = response.headers.get('x-request-id');
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ seen: echoed });
  });

  it('creates an id when the client sends none', async () => {
    const response = await fetch(`${baseUrl}/probe`);
    const echoed = response.headers.get('x-request-id');
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ seen: echoed });
  });
});
