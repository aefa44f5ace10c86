#!/usr/bin/env node
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION, RpcClient, readDeadLetters } from '@transmute/messaging';
import { ConfigError, findLocalEndpoints, loadConfig, withLocalEndpoints } from '@transmute/service-kit';
import { AccountQuota, AccountsService } from '../accounts';
import { DevKeySeeder, KeysService } from '../keys';
import { Plans } from '../limits';
import { PeopleService } from '../people';
import { adminConfig } from './admin.config';
import { type ParsedCommand, USAGE, isKnownCommand, runCommand } from './admin-commands';
import { AdminModule } from './admin.module';

/** NATS and MongoDB are retried forever by their clients; the CLI gives up after this long. */
const DEADLINE_MS = 30_000;

function parse(argv: string[]): ParsedCommand & { json: boolean; help: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      name: { type: 'string' },
      plan: { type: 'string' },
      label: { type: 'string' },
      'allow-ip': { type: 'string', multiple: true },
      'if-absent': { type: 'boolean' },
      source: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const { json, help, ...options } = values;
  return { words: positionals, options, json: json ?? false, help: help ?? false };
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help || parsed.words.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return parsed.help ? 0 : 2;
  }
  if (!isKnownCommand(parsed.words)) {
    process.stderr.write(`unknown command "${parsed.words.join(' ')}"\n\n${USAGE}\n`);
    return 2;
  }
  // Beside `make up`, its endpoints file says where NATS and the database are; variables still win.
  const endpoints = findLocalEndpoints(process.env);
  const config = loadConfig(adminConfig, withLocalEndpoints(process.env, endpoints));
  const deadline = setTimeout(() => {
    const hint = !endpoints.found
      ? ' (no .transmute/endpoints.json found: is `make up` running?)'
      : endpoints.stale
        ? ` (${endpoints.path} is left from a make up that is no longer running)`
        : '';
    process.stderr.write(`gave up after ${DEADLINE_MS / 1000} s: are NATS (${config.natsUrl}) and MongoDB reachable?${hint}\n`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  const app = await NestFactory.createApplicationContext(AdminModule.forRoot(config), { logger: false });
  try {
    const nats = app.get<NatsConnection>(NATS_CONNECTION);
    const output = await runCommand(
      {
        accounts: app.get(AccountsService),
        keys: app.get(KeysService),
        plans: app.get(Plans),
        quota: app.get(AccountQuota),
        seeder: app.get(DevKeySeeder),
        rpc: app.get(RpcClient),
        people: app.get(PeopleService),
        deadLetters: async (options) => readDeadLetters(await nats.jetstreamManager(), options),
      },
      parsed,
    );
    process.stdout.write(`${parsed.json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ServiceFailure) || error.code === ErrorCode.INTERNAL) throw error;
    if (parsed.json) process.stdout.write(`${JSON.stringify({ status: 'error', message: error.message })}\n`);
    else process.stderr.write(`${error.message}\n`);
    return error.code === ErrorCode.INVALID_ARGUMENT ? 2 : 1;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
