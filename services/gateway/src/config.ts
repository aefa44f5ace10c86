import { z } from 'zod';
import { BYTES_PER_GB, BYTES_PER_MB } from '@transmute/contracts';
import { type ConfigOf, baseConfig, envVar, positiveInt } from '@transmute/service-kit';
import { downloadTokenConfig, storageConfig } from '@transmute/storage';
import { mongoConfig } from '@transmute/persistence';
import { clientIpConfig } from './http/client-ip.config';
import { limitsConfig } from './limits';
import { oauthConfig } from './oauth/oauth.config';
import { websiteConfig } from './website/website.config';

/** Base64 imports ride inside the JSON body (4/3 of the file), so the ceiling sits above the largest one. */
const DEFAULT_MAX_JSON_BODY_BYTES = 70 * BYTES_PER_MB;
/** The proxy upload route's ceiling: 1 GB, like a large video; bigger files go to the direct route. */
const DEFAULT_IMPORT_MAX_BYTES = BYTES_PER_GB;
/** Largest decoded import/base64 file: 50 MB. */
const DEFAULT_MAX_BASE64_BYTES = 50 * BYTES_PER_MB;

export const gatewayConfig = {
  ...baseConfig(8080),
  ...storageConfig(),
  ...downloadTokenConfig(),
  ...mongoConfig(),
  ...limitsConfig(),
  ...clientIpConfig(),
  ...oauthConfig(),
  ...websiteConfig(),
  devApiKey: envVar(
    'TRANSMUTE_DEV_API_KEY',
    z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
    'Development only: a key (tm_<prefix>_<secret>) registered at start-up for account "dev" (created on plan TRANSMUTE_DEV_ACCOUNT_PLAN if absent). Leave unset in production; create keys with transmute-admin.',
    { secret: true },
  ),
  convertAllowance: envVar(
    'TRANSMUTE_CONVERT_ALLOWANCE',
    positiveInt().default(10),
    'Most convert tasks one job may hold (the plan allowance), passed to the orchestrator on job creation.',
  ),
  sandboxRateLimitPerMinute: envVar(
    'TRANSMUTE_SANDBOX_RATE_LIMIT_PER_MINUTE',
    positiveInt().default(60),
    "Sandbox job creations one client address may make per minute without a key (the spec's 60 a minute); with a key they count against the key's own limit.",
  ),
  rpcTimeoutMs: envVar('TRANSMUTE_RPC_TIMEOUT_MS', positiveInt().default(5_000), 'How long a request to another service (jobs.*) waits for its answer before the client gets 503.'),
  importMaxBytes: envVar(
    'TRANSMUTE_IMPORT_MAX_BYTES',
    positiveInt().default(DEFAULT_IMPORT_MAX_BYTES),
    'The import ceiling: largest body PUT/POST /v1/imports/{id}/content accepts, in bytes; larger gets 413.',
  ),
  uploadLinkTtlSeconds: envVar('TRANSMUTE_UPLOAD_LINK_TTL_SECONDS', positiveInt().default(3_600), "Lifetime of signed upload links (the import's direct route)."),
  fileRetentionSeconds: envVar('TRANSMUTE_FILE_RETENTION_SECONDS', positiveInt().default(86_400), 'How long stored files are kept; imports are forgotten after as long.'),
  maxJsonBodyBytes: envVar(
    'TRANSMUTE_MAX_JSON_BODY_BYTES',
    positiveInt().default(DEFAULT_MAX_JSON_BODY_BYTES),
    'Largest JSON request body in bytes (import/base64 files travel inside it); larger bodies get 413.',
  ),
  maxBase64Bytes: envVar(
    'TRANSMUTE_MAX_BASE64_BYTES',
    positiveInt().default(DEFAULT_MAX_BASE64_BYTES),
    'Largest decoded import/base64 file, in bytes; checked at job creation (larger gets 413, invalid base64 422).',
  ),
};

export type GatewayConfig = ConfigOf<typeof gatewayConfig>;
