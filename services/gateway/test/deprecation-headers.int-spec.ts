import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Deprecation } from '@transmute/api-schema';
import { createInfraProvider, freePort, type RunningInfra } from '@transmute/devstack';
import { loadConfig } from '@transmute/service-kit';
import { AppModule, GATEWAY_APP_OPTIONS } from '../src/app.module';
import { gatewayConfig } from '../src/config';
import { DEPRECATION_REGISTER } from '../src/openapi/deprecation-headers.middleware';

/*
 * The whole gateway in-process (real NATS and FerretDB; nothing answers
 * behind it), its register replaced by one deprecated route: the headers
 * reach the client on every answer of that route, errors included.
 */
describe('Deprecation and Sunset headers on a running gateway', () => {
  const register: Deprecation[] = [{ target: { route: 'get /v1/formats' }, deprecatedOn: '2026-12-01', sunsetOn: '2027-06-01', replacement: 'GET /v1/options' }];
  let infra: RunningInfra;
  let app: INestApplication;
  let baseUrl: string;
  let storageRoot: string;

  beforeAll(async () => {
    infra = await createInfraProvider().start();
    storageRoot = await mkdtemp(join(tmpdir(), 'gateway-deprecation-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig(gatewayConfig, {
      TRANSMUTE_NATS_URL: infra.natsUrl,
      TRANSMUTE_MONGODB_URI: `${infra.mongoUri}gateway_deprecation_it`,
      TRANSMUTE_HTTP_PORT: String(port),
      TRANSMUTE_PUBLIC_URL: baseUrl,
      TRANSMUTE_LOG_LEVEL: 'fatal',
      TRANSMUTE_STORAGE_FS_ROOT: storageRoot,
      TRANSMUTE_STORAGE_SIGNING_KEY: randomBytes(32).toString('hex'),
      TRANSMUTE_DOWNLOAD_TOKEN_KEY: randomBytes(32).toString('hex'),
      TRANSMUTE_RPC_TIMEOUT_MS: '500',
    });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
      .overrideProvider(DEPRECATION_REGISTER)
      .useValue(register)
      .compile();
    app = moduleRef.createNestApplication({ ...GATEWAY_APP_OPTIONS, logger: false });
    await app.listen(config.httpPort, config.httpHost);
  });

  afterAll(async () => {
    await app?.close();
    await infra?.stop();
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
  });

  it('sends Deprecation and Sunset on the deprecated route, even on its 401', async () => {
    const reply = await fetch(`${baseUrl}/v1/formats`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('deprecation')).toBe('@1796083200');
    expect(reply.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('sends neither on a route that is not deprecated', async () => {
    const reply = await fetch(`${baseUrl}/v1/options?input_format=png&output_format=jpg`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('deprecation')).toBeNull();
    expect(reply.headers.get('sunset')).toBeNull();
  });
});
