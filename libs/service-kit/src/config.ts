import { z } from 'zod';

/** One environment variable: its name, how to parse it, and whether its value may be printed. */
export interface EnvVar<T> {
  readonly name: string;
  readonly schema: z.ZodType<T, unknown>;
  readonly secret: boolean;
  readonly description: string;
}

export function envVar<T>(name: string, schema: z.ZodType<T, unknown>, description: string, options: { secret?: boolean } = {}): EnvVar<T> {
  return { name, schema, description, secret: options.secret ?? false };
}

export type ConfigShape = Record<string, EnvVar<unknown>>;
export type ConfigOf<S extends ConfigShape> = Readonly<{ [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never }>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates every variable at once, so a bad deployment learns all
 * of its mistakes in one start-up rather than one per restart.
 */
export function loadConfig<S extends ConfigShape>(shape: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(shape)) {
    const raw = env[variable.name];
    const parsed = variable.schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) {
      config[key] = parsed.data;
    } else {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      const shown = variable.secret || raw === undefined ? '' : ` (got "${raw}")`;
      problems.push(`${variable.name}: ${reason}${shown}. ${variable.description}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config) as ConfigOf<S>;
}

export const port = () => z.coerce.number().int().min(0).max(65535);
export const positiveInt = () => z.coerce.number().int().positive();
export const flag = () => z.enum(['true', 'false', '1', '0'], { message: 'expected true or false' }).transform((value) => value === 'true' || value === '1');
export const secretKey = () => z.string().min(32, { message: 'must be at least 32 characters' });

/** Variables every service reads. */
export function baseConfig(defaultPort: number) {
  return {
    natsUrl: envVar(
      'TRANSMUTE_NATS_URL',
      z
        .string()
        .regex(/^(nats|tls):\/\/\S+$/, { message: 'expected nats://host:port' })
        .default('nats://127.0.0.1:4222'),
      'Where NATS (with JetStream) listens.',
    ),
    natsReplicas: envVar(
      'TRANSMUTE_NATS_REPLICAS',
      z.coerce.number().int().min(1).max(5).default(1),
      'Copies of every JetStream stream and KV bucket the service creates, on that many NATS servers of a cluster (1 on one server; the chart sets 3 for its three servers).',
    ),
    httpHost: envVar('TRANSMUTE_HTTP_HOST', z.string().default('127.0.0.1'), 'Address the HTTP server binds to.'),
    httpPort: envVar('TRANSMUTE_HTTP_PORT', port().default(defaultPort), 'Port of the HTTP server (health, metrics, API).'),
    logLevel: envVar('TRANSMUTE_LOG_LEVEL', z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'), 'Minimum level of the JSON logs.'),
    httpHeadersTimeoutMs: envVar(
      'TRANSMUTE_HTTP_HEADERS_TIMEOUT_MS',
      positiveInt().default(20_000),
      'Time a client has to send a request head (request line and headers); past it the server answers 408 and closes the connection.',
    ),
    httpRequestTimeoutMs: envVar(
      'TRANSMUTE_HTTP_REQUEST_TIMEOUT_MS',
      z.coerce.number().int().min(0).default(300_000),
      'Time a client has to send a whole request, body included (0: no limit); past it 408 and the connection closed. Bounds slow uploads: raise it for very large files on slow links.',
    ),
    httpIdleTimeoutMs: envVar(
      'TRANSMUTE_HTTP_IDLE_TIMEOUT_MS',
      positiveInt().default(60_000),
      'A connection with no byte in either direction for this long is closed (a stalled upload, an idle client). Keep it above TRANSMUTE_SSE_KEEPALIVE_MS.',
    ),
    shutdownGraceMs: envVar('TRANSMUTE_SHUTDOWN_GRACE_MS', positiveInt().default(25_000), 'How long SIGTERM waits for in-flight work before releasing it for redelivery.'),
  };
}
export type BaseConfig = ConfigOf<ReturnType<typeof baseConfig>>;
