import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, LOOPBACK } from '../src/net/free-ports';
import { defaultToolsBin, requireTool } from '../src/infra/local-tools';
import {
  LEADERLESS_RESTART_MS,
  natsClusterPorts,
  natsServerLogs,
  leaderlessRestarter,
  startNatsServer,
  type NatsServerPorts,
  type RunningNatsServer,
} from '../src/infra/nats-cluster';
import { repoRoot } from '../src/repo-root';

/**
 * nats-meta-check, the bundled NATS image's startup probe in a cluster
 * (charts/transmute/templates/nats.yaml), run as the kubelet runs it against
 * real nats-servers on loopback: it passes only where the JetStream meta
 * group holds the expected number of servers.
 */

interface CheckResult {
  code: number;
  stdout: string;
  stderr: string;
}

const GROUP_WHOLE_MS = 30_000;
/** Well past the second a whole group takes to elect on loopback. */
const FRESH_GROUP_WAIT_MS = 3_000;

jest.setTimeout(120_000);

let metaCheck: string;
let dataRoot: string;
const running: RunningNatsServer[] = [];

beforeAll(async () => {
  // A missing binary fails here, with the command that builds it.
  requireTool(defaultToolsBin(), 'nats-server');
  metaCheck = requireTool(defaultToolsBin(), 'nats-meta-check');
  dataRoot = await mkdtemp(join(tmpdir(), 'transmute-meta-check-'));
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

afterAll(async () => {
  if (dataRoot !== undefined) await rm(dataRoot, { recursive: true, force: true });
});

function runCheck(monitorUrl: string, expect: number): Promise<CheckResult> {
  return new Promise((resolve) => {
    execFile(metaCheck, ['--expect', String(expect), '--url', monitorUrl, '--timeout', '4s'], { timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** One nats-server with JetStream, stopped after the test; in a cluster when `routes` is given. */
async function startServer(name: string, ports: NatsServerPorts, routes?: number[]): Promise<RunningNatsServer> {
  const server = await startNatsServer(name, dataRoot, ports, routes);
  running.push(server);
  return server;
}

/**
 * Runs the check until every server gives the wanted exit code, or fails
 * with the last answers. Servers still without a meta leader after
 * LEADERLESS_RESTART_MS are restarted, as the chart's startup probe has
 * them restarted (restartLeaderless in nats-cluster.ts says why); the restarts are printed.
 */
async function untilEvery(servers: RunningNatsServer[], expect: number, wanted: (result: CheckResult) => boolean): Promise<CheckResult[]> {
  const deadline = Date.now() + GROUP_WHOLE_MS;
  const restartStuck = leaderlessRestarter(servers);
  for (;;) {
    const results = await Promise.all(servers.map((server) => runCheck(server.monitorUrl, expect)));
    if (results.every(wanted)) return results;
    if (Date.now() > deadline) {
      const answers = results.map((result, i) => `${servers[i]!.name}: exit ${result.code} ${result.stdout}${result.stderr}`.trim());
      throw new Error(`nats-meta-check --expect ${expect} did not settle within ${GROUP_WHOLE_MS} ms:\n${answers.join('\n')}\n${natsServerLogs(servers)}`);
    }
    const restarted = await restartStuck();
    if (restarted.length > 0) process.stderr.write(`nats-meta-check spec: restarted ${restarted.join(', ')}, without a meta leader after ${LEADERLESS_RESTART_MS} ms\n`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const passed = (result: CheckResult): boolean => result.code === 0;

describe('nats-meta-check against real nats-servers', () => {
  it('passes on every server of a whole three-server cluster, and fails when more are expected', async () => {
    const ports = await natsClusterPorts(3);
    const routes = ports.map((p) => p.cluster);
    const servers = await Promise.all(ports.map((p, i) => startServer(`whole-${i}`, p, routes)));

    const whole = await untilEvery(servers, 3, passed);
    for (const result of whole) {
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^nats-meta-check: ok, meta group of 3, leader whole-\d( \(this server\))?\n$/);
    }
    // Exactly one of them is the leader, and it counted its members.
    expect(whole.filter((result) => result.stdout.includes(' (this server)'))).toHaveLength(1);

    for (const server of servers) {
      const short = await runCheck(server.monitorUrl, 4);
      expect(short).toEqual({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^nats-meta-check: JetStream meta group holds 3 servers, expected 4 \(leader whole-\d\): a server is outside it\n$/),
      });
    }
  });

  it('fails while a fresh group lacks a server the routes name, and passes once it has joined', async () => {
    const ports = await natsClusterPorts(3);
    const routes = ports.map((p) => p.cluster);
    // Two of three on a first boot: nats-server 2.15 (and 2.14) elects no
    // leader until every server the routes name has been heard from, so
    // they cannot shrink the group to themselves (2.10 did, and a server
    // started late then stayed outside it).
    const first = await Promise.all(ports.slice(0, 2).map((p, i) => startServer(`late-${i}`, p, routes)));
    await new Promise((resolve) => setTimeout(resolve, FRESH_GROUP_WAIT_MS));
    for (const expected of [3, 2]) {
      for (const server of first) {
        const result = await runCheck(server.monitorUrl, expected);
        expect(result).toMatchObject({ code: 1, stdout: '' });
        expect(result.stderr).toMatch(/^nats-meta-check: GET \S+\/healthz\?js-meta-only=true: 503 .*JetStream has not established contact with a meta leader.*\n$/);
      }
    }

    const third = await startServer('late-2', ports[2]!, routes);
    await untilEvery([...first, third], 3, passed);
  });

  it('fails on a server that is not clustered, and on one that does not answer', async () => {
    const [client, monitor, silent] = (await freePorts(3)) as [number, number, number];
    const alone = await startServer('alone', { client, monitor });
    for (const expect_ of [3, 1]) {
      expect(await runCheck(alone.monitorUrl, expect_)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'nats-meta-check: no JetStream meta group on this server (not clustered, or JetStream still starting)\n',
      });
    }
    const nobody = await runCheck(`http://${LOOPBACK}:${silent}`, 3);
    expect(nobody).toMatchObject({ code: 1, stdout: '' });
    expect(nobody.stderr).toMatch(/^nats-meta-check: GET http:\/\/127\.0\.0\.1:\d+\/healthz\?js-meta-only=true: .*connection refused\n$/);
  });

  it('passes its Go unit tests (decisions on captured /jsz bodies)', async () => {
    const dir = join(repoRoot(), 'libs', 'devstack', 'images', 'nats', 'meta-check');
    const result = await new Promise<CheckResult>((resolve) => {
      execFile(
        'go',
        ['test', '-count=1', './...'],
        { cwd: dir, timeout: 100_000, env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' } },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        },
      );
    });
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok\s+transmute\.dev\/nats-meta-check/m) });
  });
});
