import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * `make up` (libs/devstack) writes the running platform's endpoints to
 * `<repo>/.transmute/endpoints.json`, because it picks free ports for NATS and
 * the database and nothing else could guess them. Tools run beside it (the
 * admin CLI) read the file so they work with no extra step.
 */
export const LOCAL_ENDPOINTS_FILE = join('.transmute', 'endpoints.json');

/** Points a tool at another endpoints file; nothing is searched for then. */
export const LOCAL_ENDPOINTS_FILE_VARIABLE = 'TRANSMUTE_ENDPOINTS_FILE';

export interface LocalEndpoints {
  /** The `make up` process; the file is ignored once it is gone (a crash leaves the file behind). */
  pid: number;
  baseUrl: string;
  natsUrl: string;
  mongoUri: string;
  /** TRANSMUTE_* variables a tool beside the platform needs to reach it. */
  env: Record<string, string>;
}

export type EndpointsLookup = { found: false } | { found: true; path: string; stale: boolean; endpoints: LocalEndpoints };

/** The endpoints file named by TRANSMUTE_ENDPOINTS_FILE, or the nearest `.transmute/endpoints.json` from `startDir` up. */
export function findLocalEndpoints(env: NodeJS.ProcessEnv, startDir: string = process.cwd()): EndpointsLookup {
  const named = env[LOCAL_ENDPOINTS_FILE_VARIABLE];
  const candidates = named ? [resolve(named)] : ancestors(resolve(startDir)).map((dir) => join(dir, LOCAL_ENDPOINTS_FILE));
  for (const path of candidates) {
    const endpoints = readEndpoints(path);
    if (endpoints) return { found: true, path, stale: !isAlive(endpoints.pid), endpoints };
  }
  return { found: false };
}

/**
 * The environment a tool should load its config from: the variables of a live
 * platform's endpoints file under the process's own. Variables set (and not
 * empty) in the environment win.
 */
export function withLocalEndpoints(env: NodeJS.ProcessEnv, lookup: EndpointsLookup): NodeJS.ProcessEnv {
  if (!lookup.found || lookup.stale) return env;
  const own = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  return { ...lookup.endpoints.env, ...own };
}

function ancestors(dir: string): string[] {
  const parent = dirname(dir);
  return parent === dir ? [dir] : [dir, ...ancestors(parent)];
}

function readEndpoints(path: string): LocalEndpoints | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed: unknown = JSON.parse(text);
  if (!isEndpoints(parsed)) throw new Error(`${path} is not an endpoints file written by make up (remove it)`);
  return parsed;
}

function isEndpoints(value: unknown): value is LocalEndpoints {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const env = record['env'];
  return (
    Number.isInteger(record['pid']) &&
    typeof record['baseUrl'] === 'string' &&
    typeof env === 'object' &&
    env !== null &&
    Object.values(env).every((item) => typeof item === 'string')
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
