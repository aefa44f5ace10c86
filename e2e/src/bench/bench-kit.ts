import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseProcStat, repoRoot } from '@transmute/devstack';
import { findLocalEndpoints } from '@transmute/service-kit';
import { TransmuteClient } from '../support/api-client';
import { type LocalPlatform, type StartLocalPlatformOptions, startLocalPlatform } from '../support/platform';

/** What the benchmarks (bench:latency, bench:events, bench:throughput) share. */

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} expects a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** `1,8,16` -> [1, 8, 16]. */
export function positiveIntegerList(name: string, raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  return raw.split(',').map((part) => positiveInteger(name, part.trim(), 0));
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

/** Nearest-rank median of values in any order. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** The key of a running platform: TRANSMUTE_API_KEY, or the one `make up` wrote. */
export async function apiKey(): Promise<string> {
  const fromEnv = process.env['TRANSMUTE_API_KEY'];
  if (fromEnv) return fromEnv;
  const path = join(repoRoot(), '.transmute', 'dev-api-key');
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    throw new Error(`no API key: set TRANSMUTE_API_KEY, start the platform with \`make up\` (writes ${path}), or pass --start`, { cause: error });
  }
}

/** A process of the running platform, named for the figures. */
export interface PlatformProcess {
  label: string;
  pid: () => number | undefined;
}

/**
 * The processes `make up` started for the platform at `baseUrl` (its
 * services, NATS and FerretDB: the launcher's children, named by their
 * command line), from the endpoints file it writes. Empty when no live
 * `make up` serves that URL: the caller then knows only what it can find by
 * port, and must not report the platform's CPU as measured.
 */
export async function makeUpProcesses(baseUrl: string): Promise<PlatformProcess[]> {
  const lookup = findLocalEndpoints(process.env, repoRoot());
  if (!lookup.found || lookup.stale || lookup.endpoints.baseUrl !== baseUrl) return [];
  const found: PlatformProcess[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (!stat || parseProcStat(stat.trim()).ppid !== lookup.endpoints.pid) continue;
    const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const service = command.map((part) => /services\/([^/]+)\/dist\/main\.js$/.exec(part)?.[1]).find(Boolean);
    // Converters differ only by family, as make up names them (converter-image).
    const family = /(?:^|\0)TRANSMUTE_CONVERTER_FAMILY=([^\0]+)/.exec(await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => ''))?.[1];
    const pid = Number(entry);
    found.push({ label: [service ?? command[0]!.split('/').pop()!, family].filter(Boolean).join('-'), pid: () => pid });
  }
  return found;
}

/** The platform a benchmark drives: one it started, or one already running. */
export interface BenchTarget {
  client: TransmuteClient;
  apiKey: string;
  /** Set when the benchmark started the platform itself. */
  started?: LocalPlatform;
  /** Stops what the benchmark started; keeps its files (logs, state) when the run failed. */
  stop(failed: boolean): Promise<void>;
}

/**
 * `--start`: infra and platform through @transmute/devstack on free ports,
 * stopped on `stop()` and on Ctrl-C. Otherwise TRANSMUTE_URL (default
 * http://127.0.0.1:8080) with the key from apiKey().
 */
export async function openBenchTarget(start: boolean, options: StartLocalPlatformOptions): Promise<BenchTarget> {
  if (!start) {
    const key = await apiKey();
    return { client: new TransmuteClient(process.env['TRANSMUTE_URL'] ?? DEFAULT_URL, key), apiKey: key, stop: async () => undefined };
  }
  process.stdout.write('starting infra and platform through @transmute/devstack...\n');
  const began = performance.now();
  let started: LocalPlatform | undefined = await startLocalPlatform(options);
  const platform = started;
  process.stdout.write(`platform up at ${platform.client.baseUrl} in ${((performance.now() - began) / 1000).toFixed(1)} s (logs: ${platform.logDir})\n`);
  const stop = async (failed: boolean): Promise<void> => {
    if (!started) return;
    started = undefined;
    await platform.stop({ keepFiles: failed });
    if (failed) process.stderr.write(`service logs kept in ${platform.logDir}\n`);
  };
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted; stopping\n');
    void stop(true).finally(() => process.exit(130));
  });
  return { client: platform.client, apiKey: platform.platform.devApiKey, started: platform, stop };
}
