import { join } from 'node:path';
import { LOOPBACK } from '../net/free-ports';
import type { PlatformSecrets } from './platform-secrets';

/** The database every service uses; each owns its own collections in it. */
export const DATABASE_NAME = 'transmute';

export interface PlatformEnvInput {
  natsUrl: string;
  /** mongodb://host:port/ as given by the infrastructure. */
  mongoUri: string;
  gatewayPort: number;
  /** The MCP server's port: its URL ({mcp_url}) is the resource OAuth tokens are bound to. */
  mcpPort: number;
  dataDir: string;
  secrets: PlatformSecrets;
  extraEnv?: Record<string, string>;
}

/** The variables every service shares (everything but its own port and family). */
export function buildPlatformEnv(input: PlatformEnvInput): Record<string, string> {
  return {
    NODE_ENV: 'production',
    TRANSMUTE_NATS_URL: input.natsUrl,
    TRANSMUTE_MONGODB_URI: withDatabase(input.mongoUri, DATABASE_NAME),
    TRANSMUTE_HTTP_HOST: LOOPBACK,
    TRANSMUTE_PUBLIC_URL: `http://${LOOPBACK}:${input.gatewayPort}`,
    TRANSMUTE_MCP_PUBLIC_URL: mcpUrlOf(input.mcpPort),
    TRANSMUTE_STORAGE_DRIVER: 'fs',
    TRANSMUTE_STORAGE_FS_ROOT: join(input.dataDir, 'storage'),
    // Each platform's converters their own scratch space: what killed ones leave is found and removed
    // with this platform's files, not in the /tmp/transmute-converter every run on the machine shared.
    TRANSMUTE_WORK_DIR: join(input.dataDir, 'work'),
    TRANSMUTE_STORAGE_SIGNING_KEY: input.secrets.storageSigningKey,
    TRANSMUTE_DOWNLOAD_TOKEN_KEY: input.secrets.downloadTokenKey,
    TRANSMUTE_CREDENTIALS_KEY: input.secrets.credentialsKey,
    TRANSMUTE_DEV_API_KEY: input.secrets.devApiKey,
    TRANSMUTE_LOG_LEVEL: 'info',
    ...input.extraEnv,
  };
}

/** `{mcp_url}` of a platform whose MCP server listens on `port`. */
export const mcpUrlOf = (port: number): string => `http://${LOOPBACK}:${port}/mcp`;

/**
 * The full environment of one service process: the parent's environment
 * (PATH, HOME, tool locations) without any TRANSMUTE_* variable, so a stray
 * setting in a developer's shell cannot change what a test runs against; then
 * the platform's variables; then what belongs to this process alone.
 */
export function buildServiceEnv(inherited: NodeJS.ProcessEnv, platformEnv: Record<string, string>, service: { port: number; env: Record<string, string> }): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(inherited).filter(([key]) => !key.startsWith('TRANSMUTE_')));
  return { ...base, ...platformEnv, ...service.env, TRANSMUTE_HTTP_PORT: String(service.port) };
}

/** Appends the database name to a mongodb:// URI, before any ?options. */
export function withDatabase(mongoUri: string, database: string): string {
  const [beforeQuery = '', query] = mongoUri.split('?', 2);
  const withSlash = beforeQuery.endsWith('/') ? beforeQuery : `${beforeQuery}/`;
  return `${withSlash}${database}${query === undefined ? '' : `?${query}`}`;
}
