#!/usr/bin/env node
/**
 * `pnpm cluster:upgrade-from <git revision>` (after `make build`): what an
 * operator's `helm upgrade` from an older release does to a running
 * platform. Installs the chart as it was at the revision on the cluster of
 * `make cluster`, finishes jobs on it, then upgrades to the chart checked out
 * here while DOCX jobs are submitted before, during and after. Prints each
 * figure and ends with "N passed, N failed":
 *
 * - every job ends `finished`, and each gets one webhook;
 * - jobs finished before the upgrade still read back finished;
 * - every stream holds the same messages on each NATS server afterwards,
 *   and every server runs the chart's NATS.
 *
 * Both charts' images must be in the cluster: `make images` and `make
 * cluster-load` give this checkout's; docs/operations.md ("Upgrade", "From
 * an older release") shows how to build an older NATS image.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@transmute/devstack';
import { parse } from 'yaml';
import { TransmuteClient } from '../support';
import { helm, kubectl, nodeAddress, pods, waitFor } from './cluster-kit';
import { type BatchSource, type EndedJob, type SubmittedJob, submitBatch, waitForAll } from './job-batch';
import { RECEIVER_NODE_PORT, type ReceivedDelivery, receiverManifests } from './webhook-receiver';

const RELEASE = 'transmute';
const NAMESPACE = 'transmute-upgrade';
const minutes = (n: number) => n * 60_000;
const began = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - began) / 1000).toFixed(1)} s] ${line}`);

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail: string): void {
  if (ok) passed += 1;
  else failed += 1;
  log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}

/** The chart at `revision`, extracted from git. */
function chartAt(revision: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'transmute-chart-'));
  execFileSync('bash', ['-c', 'git -C "$1" archive "$2" charts/transmute | tar -x -C "$3"', 'archive', repoRoot(), revision, dir]);
  return join(dir, 'charts', 'transmute');
}

/** The NATS image a chart runs by default. */
function natsImageOf(chart: string): string {
  const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8')) as { nats: { image: { repository: string; tag: string } } };
  return `docker.io/${values.nats.image.repository}:${values.nats.image.tag}`;
}

function requireLoaded(image: string): void {
  const stamp = join(repoRoot(), '.transmute', 'cluster', 'loaded', image.replaceAll('/', '_'));
  if (!existsSync(stamp)) throw new Error(`${image} is not in the cluster: build it and run \`make cluster-load\` (docs/operations.md, "From an older release")`);
}

async function installOrUpgrade(verb: 'install' | 'upgrade', chart: string, node: string): Promise<number> {
  const startedAt = Date.now();
  const values = `publicUrl=http://${node}:30080,mcpUrl=http://${node}:30086/mcp,storage.s3.publicEndpoint=http://${node}:30900`;
  const create = verb === 'install' ? ['--create-namespace'] : [];
  await helm([verb, RELEASE, chart, '-n', NAMESPACE, ...create, '-f', join(chart, 'ci', 'cluster-values.yaml'), '--set', values, '--wait', '--timeout', '20m'], {
    timeoutMs: minutes(21),
  });
  return Date.now() - startedAt;
}

interface NatsServerState {
  pod: string;
  version: string;
  restarts: number;
  streams: Map<string, number>;
}

async function natsServers(): Promise<NatsServerState[]> {
  const servers = await pods(NAMESPACE, 'app.kubernetes.io/component=nats');
  return Promise.all(
    servers.map(async (server) => {
      const varz = (await (await fetch(`http://${server.ip}:8222/varz`)).json()) as { version: string };
      const jsz = (await (await fetch(`http://${server.ip}:8222/jsz?accounts=true&streams=true`)).json()) as {
        account_details?: Array<{ stream_detail?: Array<{ name: string; state: { messages: number } }> }>;
      };
      const streams = (jsz.account_details ?? []).flatMap((account) => account.stream_detail ?? []);
      return { pod: server.name, version: varz.version, restarts: server.restarts, streams: new Map(streams.map((stream) => [stream.name, stream.state.messages])) };
    }),
  );
}

/** The receiver's delivery ids, by job. */
async function deliveriesByJob(node: string): Promise<Map<string, Set<string>>> {
  const deliveries = (await (await fetch(`http://${node}:${RECEIVER_NODE_PORT}/deliveries`)).json()) as ReceivedDelivery[];
  const perJob = new Map<string, Set<string>>();
  for (const delivery of deliveries) perJob.set(delivery.jobId, (perJob.get(delivery.jobId) ?? new Set()).add(delivery.delivery));
  return perJob;
}

/** Streams whose message count differs between the servers, with each server's count. */
function divergentStreams(servers: NatsServerState[]): string[] {
  const names = new Set(servers.flatMap((server) => [...server.streams.keys()]));
  return [...names].flatMap((name) => {
    const counts = servers.map((server) => server.streams.get(name));
    return new Set(counts).size > 1 ? [`${name} ${servers.map((server, i) => `${server.pod}=${counts[i]}`).join(' ')}`] : [];
  });
}

async function main(): Promise<void> {
  const revision = process.argv[2];
  if (!revision) throw new Error('usage: upgrade-from <git revision of the release installed first>');
  const old = chartAt(revision);
  const current = join(repoRoot(), 'charts', 'transmute');
  const oldNats = natsImageOf(old);
  requireLoaded(oldNats);
  const node = await nodeAddress();

  await helm(['uninstall', RELEASE, '-n', NAMESPACE, '--wait', '--timeout', '5m']).catch(() => undefined);
  await kubectl(['delete', 'namespace', NAMESPACE, '--wait=true', '--ignore-not-found'], { timeoutMs: minutes(5) });
  log(`helm install of the chart at ${revision} (NATS ${oldNats}) to every pod ready: ${((await installOrUpgrade('install', old, node)) / 1000).toFixed(1)} s`);

  const admin = (args: string[]) => kubectl(['-n', NAMESPACE, 'exec', `deploy/${RELEASE}-gateway`, '--', 'transmute-admin', ...args, '--json']);
  await admin(['accounts', 'create', 'upgrade', '--plan', 'dev', '--if-absent']);
  const apiKey = (JSON.parse(await admin(['keys', 'create', 'upgrade', '--label', 'cluster:upgrade-from'])) as { key: string }).key;
  const client = new TransmuteClient(`http://${node}:30080`, apiKey, 60_000);
  const gatewayImage = JSON.parse(await kubectl(['-n', NAMESPACE, 'get', 'deploy', `${RELEASE}-gateway`, '-o', 'json'])).spec.template.spec.containers[0].image as string;
  await kubectl(['apply', '-f', '-'], { input: receiverManifests(NAMESPACE, gatewayImage) });
  await kubectl(['-n', NAMESPACE, 'wait', '--for=condition=Ready', 'pod/webhook-receiver', '--timeout=120s'], { timeoutMs: minutes(3) });
  const hook = `http://webhook-receiver.${NAMESPACE}.svc.cluster.local:8080/hook`;
  const docx: BatchSource = {
    filename: 'brief.docx',
    bytes: execFileSync('pandoc', ['-f', 'markdown', '-t', 'docx', '-o', '-'], { input: '# Upgrade brief\n\nQuixotic zephyrs vault over the juniper.\n' }),
    outputFormat: 'pdf',
  };

  const before = await waitForAll(client, await submitBatch(client, docx, 20, hook, 'before-upgrade'), minutes(10));
  check(
    'jobs before the upgrade',
    before.every((job) => job.status === 'finished'),
    `${before.filter((job) => job.status === 'finished').length} of ${before.length} finished`,
  );

  const across: SubmittedJob[] = await submitBatch(client, docx, 20, hook, 'across-upgrade');
  let upgradeMs: number | undefined;
  const upgrading = installOrUpgrade('upgrade', current, node).then((ms) => {
    upgradeMs = ms;
  });
  while (upgradeMs === undefined) {
    across.push(...(await submitBatch(client, docx, 2, hook, 'across-upgrade', 2)));
    await Promise.race([upgrading, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
  await upgrading;
  log(`helm upgrade to this checkout's chart, to every pod ready: ${(upgradeMs / 1000).toFixed(1)} s, ${across.length - 20} jobs submitted during it`);
  across.push(...(await submitBatch(client, docx, 20, hook, 'after-upgrade')));

  const ended: EndedJob[] = await waitForAll(client, across, minutes(15));
  const unfinished = ended.filter((job) => job.status !== 'finished');
  check(
    'jobs across the upgrade',
    unfinished.length === 0,
    `${ended.length - unfinished.length} of ${ended.length} finished${unfinished.length ? `; e.g. ${unfinished[0]!.status}: ${unfinished[0]!.error}` : ''}`,
  );
  const reread = await Promise.all(before.map((job) => client.getJob(job.id)));
  check(
    'jobs from before, read again',
    reread.every((job) => job.status === 'finished'),
    `${reread.filter((job) => job.status === 'finished').length} of ${before.length} finished`,
  );

  const all = [...before, ...ended];
  // A webhook may leave a moment after its job's end is read.
  const perJob = await waitFor(
    'a webhook for every job',
    async () => {
      const seen = await deliveriesByJob(node);
      return all.every((job) => seen.has(job.id)) ? seen : undefined;
    },
    minutes(2),
    2000,
  ).catch(() => deliveriesByJob(node));
  const twice = [...perJob.values()].filter((ids) => ids.size > 1).length;
  const delivered = all.filter((job) => perJob.has(job.id)).length;
  check('one webhook per job', delivered === all.length && twice === 0, `${delivered} of ${all.length} jobs delivered, ${twice} delivered twice`);

  // Replicas apply the last acknowledgements a moment after their leader.
  const servers = await waitFor(
    'every stream alike on each NATS server',
    async () => {
      const seen = await natsServers();
      return divergentStreams(seen).length === 0 ? seen : undefined;
    },
    minutes(1),
    2000,
  ).catch(() => natsServers());
  const expected = natsImageOf(current).split(':').at(-1);
  const replicas = Number(await kubectl(['-n', NAMESPACE, 'get', 'statefulset', `${RELEASE}-nats`, '-o', 'jsonpath={.spec.replicas}']));
  check(
    'NATS servers upgraded',
    servers.length === replicas && servers.every((server) => server.version === expected),
    `${servers.length} of ${replicas} servers: ${servers.map((server) => `${server.pod} ${server.version}, ${server.restarts} restarts`).join('; ')}`,
  );
  const divergent = divergentStreams(servers);
  check('every stream alike on each NATS server', divergent.length === 0, divergent.length ? divergent.join('; ') : `${servers[0]?.streams.size ?? 0} streams`);

  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
