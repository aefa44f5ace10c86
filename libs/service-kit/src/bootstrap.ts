import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { type BaseConfig, ConfigError, type ConfigShape, type ConfigOf, loadConfig } from './config';
import { LimitedExpressAdapter } from './http-limits';

export interface ServiceDefinition<S extends ConfigShape> {
  name: string;
  config: S;
  module: (config: ConfigOf<S>) => DynamicModule;
  /** Runs after the app is built and before it listens (e.g. to attach the NATS RPC server). */
  beforeListen?: (app: INestApplication, config: ConfigOf<S>) => Promise<void>;
  /** Express body parsing stays off where routes stream raw bodies themselves. */
  bodyParser?: boolean;
}

function fatal(service: string, message: string, error?: unknown): never {
  const line = { level: 'fatal', time: new Date().toISOString(), service, message, error: error instanceof Error ? error.stack : undefined };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
}

/** Validates config, builds the Nest app, wires shutdown hooks and listens. */
export async function runService<S extends ConfigShape>(definition: ServiceDefinition<S>): Promise<INestApplication> {
  let config: ConfigOf<S>;
  try {
    config = loadConfig(definition.config);
  } catch (error) {
    if (error instanceof ConfigError) fatal(definition.name, error.message);
    throw error;
  }
  const base = config as unknown as BaseConfig;
  try {
    const adapter = new LimitedExpressAdapter({
      headersTimeoutMs: base.httpHeadersTimeoutMs,
      requestTimeoutMs: base.httpRequestTimeoutMs,
      idleTimeoutMs: base.httpIdleTimeoutMs,
    });
    const app = await NestFactory.create<NestExpressApplication>(definition.module(config), adapter, {
      bufferLogs: true,
      bodyParser: definition.bodyParser ?? true,
    });
    const logger = app.get(Logger);
    app.useLogger(logger);
    app.disable('x-powered-by');
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
    await definition.beforeListen?.(app, config);
    await app.listen(base.httpPort, base.httpHost);
    logger.log(`${definition.name} listening on http://${base.httpHost}:${base.httpPort}`);
    return app;
  } catch (error) {
    fatal(definition.name, `failed to start: ${error instanceof Error ? error.message : String(error)}`, error);
  }
}
