import { z } from 'zod';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { downloadTokenConfig, storageConfig } from '@transmute/storage';

/** Base64 imports ride inside the JSON body, so the ceiling sits well above a typical request. */
const DEFAULT_MAX_JSON_BODY_BYTES = 70 * 1024 * 1024;

export const gatewayConfig = {
  ...baseConfig(8080),
  ...storageConfig(),
  ...downloadTokenConfig(),
  devApiKey: envVar(
    'TRANSMUTE_DEV_API_KEY',
    z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
    'The one API key accepted until accounts exist; requests made with it belong to account "dev". Unset: every keyed route answers 401.',
    { secret: true },
  ),
  convertAllowance: envVar(
    'TRANSMUTE_CONVERT_ALLOWANCE',
    positiveInt().default(10),
    'Most convert tasks one job may hold (the plan allowance), passed to the orchestrator on job creation.',
  ),
  rpcTimeoutMs: envVar(
    'TRANSMUTE_RPC_TIMEOUT_MS',
    positiveInt().default(5_000),
    'How long a request to another service (jobs.*) waits for its answer before the client gets 503.',
  ),
  maxJsonBodyBytes: envVar(
    'TRANSMUTE_MAX_JSON_BODY_BYTES',
    positiveInt().default(DEFAULT_MAX_JSON_BODY_BYTES),
    'Largest JSON request body in bytes (import/base64 files travel inside it); larger bodies get 413.',
  ),
};

export type GatewayConfig = ConfigOf<typeof gatewayConfig>;
