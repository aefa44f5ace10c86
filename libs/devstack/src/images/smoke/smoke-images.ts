import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningInfra } from '../../infra/infra-provider';
import { LocalProcessInfraProvider } from '../../infra/local-process-infra-provider';
import { httpStatus } from '../../infra/test-servers-common';
import { freePorts, LOOPBACK } from '../../net/free-ports';
import { isAcceptingConnections } from '../../net/wait-for-tcp';
import { generateSecrets } from '../../platform/platform-secrets';
import { buildPlatformEnv } from '../../platform/service-env';
import type { AppImage, HelperImage, ServerImage, TransmuteImage } from '../image-set';
import { podmanOutput } from '../podman';
import { provesFerretDbStore, provesMinioObjects, provesNatsJetStream } from './server-probes';
import { CHART_USER, runOnce, SmokeContainer, type SmokeRunOptions } from './smoke-container';

export interface SmokeResult {
  name: string;
  ok: boolean;
  /** From start to ready, or to the failure. */
  seconds: number;
  /** Why it failed, with the container's log; what was proven when it passed. */
  detail: string;
}

/** What one image is started with and how its readiness and its work are proven. */
interface SmokePlan {
  run: Omit<SmokeRunOptions, 'name' | 'ref'>;
  /** Polled until it answers true. */
  ready: () => Promise<boolean>;
  readyTimeoutMs: number;
  /** What readiness means here, for the report. */
  readiness: string;
  /** Extra proof once ready (a real request through the server's protocol). */
  verify?: () => Promise<string>;
  /** Removes what the plan made on the host (a data directory). */
  cleanup?: () => Promise<void>;
  /** The exit code of a clean stop on SIGTERM (0 unless the program says otherwise). */
  exitCodeOnSigterm?: number;
}

/** The Transmute services exit on SIGTERM once drained; give them what the chart's terminationGracePeriod gives. */
const STOP_GRACE_SECONDS = 30;
const APP_READY_TIMEOUT_MS = 180_000;
const SERVER_READY_TIMEOUT_MS = 60_000;

/**
 * Starts each image once, the way the chart runs it (its user, read-only root
 * file system, tmpfs /tmp, no capabilities, lowered limits), waits for it to
 * be ready, proves the server images' work with a real client, then stops it
 * with SIGTERM and expects exit code 0. The Transmute images run against a
 * real NATS and FerretDB started by the devstack on loopback (host network).
 */
export async function smokeImages(images: readonly TransmuteImage[], report: (result: SmokeResult) => void): Promise<SmokeResult[]> {
  const missing: string[] = [];
  for (const image of images) if (!(await imageExists(image.ref))) missing.push(image.ref);
  if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')}; run \`make images\` first`);

  const infra = images.some((image) => image.kind === 'app') ? await new LocalProcessInfraProvider().start() : undefined;
  const results: SmokeResult[] = [];
  try {
    for (const image of images) {
      const result = await smokeOne(image, await planFor(image, infra));
      report(result);
      results.push(result);
    }
  } finally {
    await infra?.stop();
  }
  return results;
}

async function smokeOne(image: TransmuteImage, plan: SmokePlan): Promise<SmokeResult> {
  const started = Date.now();
  const seconds = (): number => (Date.now() - started) / 1000;
  let container: SmokeContainer | undefined;
  try {
    container = await SmokeContainer.start({ ...plan.run, name: `transmute-smoke-${image.name}`, ref: image.ref });
    await waitUntil(plan, container);
    const readyAfter = seconds();
    const proof = plan.verify === undefined ? '' : `; ${await plan.verify()}`;
    const exitCode = await container.stop(STOP_GRACE_SECONDS);
    const expected = plan.exitCodeOnSigterm ?? 0;
    if (exitCode !== expected) throw new Error(`exited with code ${exitCode} after SIGTERM (expected ${expected})`);
    return { name: image.name, ok: true, seconds: readyAfter, detail: `${plan.readiness} after ${readyAfter.toFixed(1)} s${proof}; stopped cleanly on SIGTERM` };
  } catch (error) {
    const logs = container === undefined ? '' : `\n--- ${image.ref} log (last lines) ---\n${await container.logs()}`;
    return { name: image.name, ok: false, seconds: seconds(), detail: `${(error as Error).message}${logs}` };
  } finally {
    await container?.remove();
    await plan.cleanup?.();
  }
}

async function waitUntil(plan: SmokePlan, container: SmokeContainer): Promise<void> {
  const deadline = Date.now() + plan.readyTimeoutMs;
  for (;;) {
    if (await plan.ready().catch(() => false)) return;
    if (!(await container.isRunning())) throw new Error('exited before it was ready');
    if (Date.now() > deadline) throw new Error(`not ready (${plan.readiness}) within ${plan.readyTimeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function planFor(image: TransmuteImage, infra: RunningInfra | undefined): Promise<SmokePlan> {
  switch (image.kind) {
    case 'app':
      return appPlan(image, infra!);
    case 'server':
      return serverPlan(image);
    case 'helper':
      return helperPlan(image);
  }
}

/** A Transmute service: its own free port, the platform's variables, fs storage on its tmpfs. */
async function appPlan(image: AppImage, infra: RunningInfra): Promise<SmokePlan> {
  const [port, mcpPort] = (await freePorts(2)) as [number, number];
  const env = {
    ...buildPlatformEnv({ natsUrl: infra.natsUrl, mongoUri: infra.mongoUri, gatewayPort: port, mcpPort, dataDir: '/tmp', secrets: generateSecrets() }),
    TRANSMUTE_HTTP_PORT: String(port),
  };
  const family = image.artifact.buildArgs['FAMILY'];
  return {
    run: { env },
    ready: async () => (await httpStatus(`http://${LOOPBACK}:${port}/readyz`)) === 200,
    readyTimeoutMs: APP_READY_TIMEOUT_MS,
    readiness: family === undefined ? 'GET /readyz 200' : `GET /readyz 200 (family ${family}, engines ready)`,
    verify: image.name === 'gateway' ? provesAdminCli(image.ref) : undefined,
    // Nest closes the app on SIGTERM, then raises SIGTERM again on itself. As
    // PID 1, node ignores it and exits 0; under tini (the converters) it dies
    // of it and tini reports 128 + 15. A stop that hangs ends in SIGKILL: 137.
    exitCodeOnSigterm: image.artifact.target === 'converter' ? 143 : 0,
  };
}

/** The gateway image carries the operators' CLI on the PATH (kubectl exec ... -- transmute-admin). */
function provesAdminCli(ref: string): () => Promise<string> {
  return async () => {
    const help = await runOnce(ref, ['transmute-admin', '--help']);
    if (!/accounts/.test(help)) throw new Error(`transmute-admin --help printed no command list:\n${help}`);
    return 'transmute-admin --help runs';
  };
}

async function serverPlan(image: ServerImage): Promise<SmokePlan> {
  const dataDir = await ownedDataDir(image.name);
  const [port, second] = (await freePorts(2)) as [number, number];
  switch (image.name) {
    case 'nats':
      return {
        run: { dataDir: dataDir.path, args: ['--jetstream', '--store_dir', '/data', '--addr', LOOPBACK, '--port', String(port), '--http_port', String(second)] },
        ready: async () => (await httpStatus(`http://${LOOPBACK}:${second}/healthz?js-enabled-only=true`)) === 200,
        readyTimeoutMs: SERVER_READY_TIMEOUT_MS,
        readiness: 'GET /healthz?js-enabled-only=true 200',
        verify: async () => {
          await provesNatsJetStream(port);
          await provesMetaCheckRuns(image.ref);
          return 'JetStream file-store message written and read back; nats-meta-check runs';
        },
        cleanup: dataDir.remove,
        // nats-server shuts down fully on SIGTERM, then exits with 1 by design
        // (server/signal.go); lame-duck mode (SIGUSR2) is its graceful exit.
        exitCodeOnSigterm: 1,
      };
    case 'ferretdb':
      return {
        run: { dataDir: dataDir.path, args: [`--listen-addr=${LOOPBACK}:${port}`, '--sqlite-dir=/data'] },
        ready: () => isAcceptingConnections(port),
        readyTimeoutMs: SERVER_READY_TIMEOUT_MS,
        readiness: 'accepting connections',
        verify: async () => (await provesFerretDbStore(port), 'document inserted and found over the MongoDB wire protocol'),
        cleanup: dataDir.remove,
      };
    case 'minio': {
      const credentials = { accessKeyId: `smoke${randomBytes(6).toString('hex')}`, secretAccessKey: randomBytes(24).toString('hex') };
      return {
        run: {
          dataDir: dataDir.path,
          env: { MINIO_ROOT_USER: credentials.accessKeyId, MINIO_ROOT_PASSWORD: credentials.secretAccessKey },
          args: ['server', '/data', '--address', `${LOOPBACK}:${port}`, '--console-address', `${LOOPBACK}:${second}`],
        },
        ready: async () => (await httpStatus(`http://${LOOPBACK}:${port}/minio/health/ready`)) === 200,
        readyTimeoutMs: SERVER_READY_TIMEOUT_MS,
        readiness: 'GET /minio/health/ready 200',
        verify: async () => (await provesMinioObjects(port, credentials), 'bucket made, 64 KiB object written and read back over S3, no stray bucket'),
        cleanup: dataDir.remove,
      };
    }
  }
}

/**
 * The chart's startup probe of a clustered NATS server is an exec of
 * nats-meta-check: it is in the image and runs there as the chart's user.
 * In a container without a network it must fail, naming the request.
 */
async function provesMetaCheckRuns(ref: string): Promise<void> {
  const answer = await runOnce(ref, ['/usr/local/bin/nats-meta-check', '--expect', '3']).then(
    (stdout) => {
      throw new Error(`nats-meta-check passed with no server to ask: ${stdout}`);
    },
    (error: Error) => error.message,
  );
  if (!answer.includes('nats-meta-check: GET http://127.0.0.1:8222/healthz')) throw new Error(`nats-meta-check did not run in ${ref}: ${answer}`);
}

/** The webhook receiver records a delivery and lists it; curl and jq run as the client. */
async function helperPlan(image: HelperImage): Promise<SmokePlan> {
  const [port] = (await freePorts(1)) as [number];
  const base = `http://${LOOPBACK}:${port}`;
  return {
    run: { env: { PORT: String(port), HOST: LOOPBACK } },
    ready: async () => (await httpStatus(`${base}/readyz`)) === 200,
    readyTimeoutMs: SERVER_READY_TIMEOUT_MS,
    readiness: 'GET /readyz 200',
    verify: async () => {
      const body = JSON.stringify({ event: 'smoke', id: randomBytes(8).toString('hex') });
      const posted = await fetch(`${base}/hooks/smoke`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-smoke': 'yes' }, body });
      const failing = await fetch(`${base}/status/503/hooks`, { method: 'POST', body: '{}' });
      const deliveries = (await (await fetch(`${base}/deliveries`)).json()) as Array<{ path: string; body: string; headers: Record<string, string> }>;
      const recorded = deliveries.find((delivery) => delivery.path === '/hooks/smoke');
      if (posted.status !== 200 || failing.status !== 503 || recorded?.body !== body || recorded.headers['x-smoke'] !== 'yes') {
        throw new Error(`receiver answered ${posted.status}/${failing.status} and recorded ${JSON.stringify(deliveries)}`);
      }
      const curl = await runOnce(image.ref, ['curl', '--version']);
      const jq = await runOnce(image.ref, ['jq', '--version']);
      return `delivery recorded with its headers and body, forced 503 answered; ${curl.split(' ', 2).join(' ')}, ${jq}`;
    },
  };
}

interface OwnedDir {
  path: string;
  remove: () => Promise<void>;
}

/** A host directory owned by the chart's user, mounted at /data like a PersistentVolume with fsGroup. */
async function ownedDataDir(name: string): Promise<OwnedDir> {
  const path = await mkdtemp(join(tmpdir(), `transmute-smoke-${name}-`));
  const [uid, gid] = CHART_USER.split(':').map(Number) as [number, number];
  await chown(path, uid, gid);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

async function imageExists(ref: string): Promise<boolean> {
  return podmanOutput(['image', 'exists', ref]).then(
    () => true,
    () => false,
  );
}
