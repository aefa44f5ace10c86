import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { repoRoot } from '@transmute/devstack';

/**
 * kubectl and helm against the cluster of `make cluster`, for the tests of
 * `make test-cluster`. Every command has a deadline and fails with its output.
 */

const run = promisify(execFile);

export function kubeconfig(): string {
  const path = process.env['KUBECONFIG'] ?? join(repoRoot(), '.transmute', 'cluster', 'kubeconfig');
  if (!existsSync(path)) throw new Error(`no kubeconfig at ${path}: start the cluster with \`make cluster\` (or set KUBECONFIG)`);
  return path;
}

/** kubectl comes with the cluster (`make cluster`), helm with the test tools (`make test-tools`). */
function tool(name: 'kubectl' | 'helm'): string {
  const path = name === 'kubectl' ? join(repoRoot(), '.transmute', 'cluster', 'bin', name) : join(repoRoot(), '.tools', 'bin', name);
  if (existsSync(path)) return path;
  throw new Error(`${path} is missing: run \`${name === 'kubectl' ? 'make cluster' : 'make test-tools'}\``);
}

async function command(binary: 'kubectl' | 'helm', args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  const child = run(tool(binary), args, {
    env: { ...process.env, KUBECONFIG: kubeconfig(), HELM_NO_PLUGINS: '1' },
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (options.input !== undefined) child.child.stdin?.end(options.input);
  try {
    return (await child).stdout;
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${binary} ${args.join(' ')} failed: ${message}\n${stdout}${stderr}`.slice(0, 8000));
  }
}

export const kubectl = (args: string[], options?: { input?: string; timeoutMs?: number }) => command('kubectl', args, options);
export const helm = (args: string[], options?: { timeoutMs?: number }) => command('helm', args, options);

/** The node's address: the gateway's and MinIO's node ports answer there, for this host and for pods alike. */
export async function nodeAddress(): Promise<string> {
  const address = await kubectl(['get', 'nodes', '-o', 'jsonpath={.items[0].status.addresses[?(@.type=="InternalIP")].address}']);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(address.trim())) throw new Error(`the node has no InternalIP address (got "${address}")`);
  return address.trim();
}

export interface PodState {
  name: string;
  ip: string;
  ready: boolean;
  phase: string;
  restarts: number;
  labels: Record<string, string>;
  createdAt: number;
}

export async function pods(namespace: string, selector: string): Promise<PodState[]> {
  const list = JSON.parse(await kubectl(['-n', namespace, 'get', 'pods', '-l', selector, '-o', 'json'])) as {
    items: Array<{
      metadata: { name: string; labels: Record<string, string>; creationTimestamp: string; deletionTimestamp?: string };
      status: { phase: string; podIP?: string; conditions?: Array<{ type: string; status: string }>; containerStatuses?: Array<{ restartCount: number }> };
    }>;
  };
  return list.items
    .filter((pod) => !pod.metadata.deletionTimestamp)
    .map((pod) => ({
      name: pod.metadata.name,
      ip: pod.status.podIP ?? '',
      phase: pod.status.phase,
      ready: pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      restarts: (pod.status.containerStatuses ?? []).reduce((sum, c) => sum + c.restartCount, 0),
      labels: pod.metadata.labels,
      createdAt: Date.parse(pod.metadata.creationTimestamp),
    }));
}

/**
 * A JetStream consumer's backlog as KEDA's nats-jetstream trigger reads it:
 * messages not yet delivered plus those delivered and not yet acknowledged,
 * from the monitoring endpoint of whichever server answers first.
 */
export async function consumerBacklog(namespace: string, stream: string, consumer: string): Promise<number> {
  for (const server of await pods(namespace, 'app.kubernetes.io/component=nats')) {
    if (!server.ready || !server.ip) continue;
    const response = await fetch(`http://${server.ip}:8222/jsz?accounts=true&streams=true&consumers=true`).catch(() => undefined);
    if (!response?.ok) continue;
    const jsz = (await response.json()) as {
      account_details?: Array<{ stream_detail?: Array<{ name: string; consumer_detail?: Array<{ name: string; num_pending: number; num_ack_pending: number }> }> }>;
    };
    const found = (jsz.account_details ?? [])
      .flatMap((account) => account.stream_detail ?? [])
      .filter((detail) => detail.name === stream)
      .flatMap((detail) => detail.consumer_detail ?? [])
      .find((detail) => detail.name === consumer);
    if (found) return found.num_pending + found.num_ack_pending;
  }
  throw new Error(`no NATS server reports the consumer ${consumer} on ${stream}`);
}

/** Polls `check` until it returns a value other than undefined; fails naming `what` and the last state seen. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 1000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (last error: ${last.slice(0, 500)})` : ''}`);
    await sleep(intervalMs);
  }
}

/** Every pod's description and logs (and the previous container's), for a failed run to be read afterwards. */
export async function keepLogs(namespace: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'pods.txt'), await kubectl(['-n', namespace, 'get', 'pods', '-o', 'wide']).catch((e: Error) => e.message));
  await writeFile(join(dir, 'events.txt'), await kubectl(['-n', namespace, 'get', 'events', '--sort-by=.lastTimestamp']).catch((e: Error) => e.message));
  for (const pod of await pods(namespace, 'app.kubernetes.io/part-of=transmute').catch(() => [])) {
    const logs = await kubectl(['-n', namespace, 'logs', pod.name, '--all-containers', '--tail=2000']).catch((e: Error) => e.message);
    const previous = pod.restarts > 0 ? await kubectl(['-n', namespace, 'logs', pod.name, '--previous', '--tail=500']).catch((e: Error) => e.message) : '';
    await writeFile(join(dir, `${pod.name}.log`), previous ? `${previous}\n----- restarted -----\n${logs}` : logs);
  }
}
