import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { createInfraProvider, freePort, type RunningInfra } from '@transmute/devstack';
import { connectRpcServer } from '@transmute/messaging';
import { loadConfig } from '@transmute/service-kit';
import { AppModule, GATEWAY_APP_OPTIONS, SERVICE_NAME } from '../src/app.module';
import { type GatewayConfig, gatewayConfig } from '../src/config';

export interface GatewayTestOptions {
  /** The MongoDB database: one per spec, so that specs never see each other's accounts. */
  database: string;
  /** Variables added to (or replacing) the defaults below. */
  env?: Record<string, string>;
  /** Also answer NATS requests in the gateway's queue group, as the running service does (accounts.*, keys.*). */
  rpcServer?: boolean;
  /** Replaces providers before the module compiles (`.overrideProvider(...)`). */
  override?: (module: TestingModuleBuilder) => TestingModuleBuilder;
}

export interface GatewayForTest {
  readonly infra: RunningInfra;
  readonly app: INestApplication;
  readonly config: GatewayConfig;
  readonly baseUrl: string;
  /** The fs storage driver's folder. */
  readonly storageRoot: string;
  /** Closes the gateway, stops NATS and FerretDB and removes the storage folder. */
  stop(): Promise<void>;
}

/**
 * The whole gateway in-process on a free loopback port, against a real NATS
 * and FerretDB started for it, with the fs storage driver in a scratch folder
 * and fresh signing keys. Nothing answers behind it (no orchestrator, no
 * catalogue) unless the test plays that part.
 */
export async function startGatewayForTest(options: GatewayTestOptions): Promise<GatewayForTest> {
  const infra = await createInfraProvider().start();
  const storageRoot = await mkdtemp(join(tmpdir(), `${options.database}-`));
  let app: INestApplication | undefined;
  const stop = async () => {
    await app?.close();
    await infra.stop();
    await rm(storageRoot, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig(gatewayConfig, {
      TRANSMUTE_NATS_URL: infra.natsUrl,
      TRANSMUTE_MONGODB_URI: `${infra.mongoUri}${options.database}`,
      TRANSMUTE_HTTP_PORT: String(port),
      TRANSMUTE_PUBLIC_URL: baseUrl,
      TRANSMUTE_LOG_LEVEL: 'fatal',
      TRANSMUTE_STORAGE_FS_ROOT: storageRoot,
      TRANSMUTE_STORAGE_SIGNING_KEY: randomBytes(32).toString('hex'),
      TRANSMUTE_DOWNLOAD_TOKEN_KEY: randomBytes(32).toString('hex'),
      ...options.env,
    });
    const builder = Test.createTestingModule({ imports: [AppModule.forRoot(config)] });
    const moduleRef = await (options.override?.(builder) ?? builder).compile();
    app = moduleRef.createNestApplication({ ...GATEWAY_APP_OPTIONS, logger: false });
    if (options.rpcServer) await connectRpcServer(app, { url: config.natsUrl, queue: SERVICE_NAME });
    await app.listen(config.httpPort, config.httpHost);
    return { infra, app, config, baseUrl, storageRoot, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
