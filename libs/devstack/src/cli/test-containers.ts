#!/usr/bin/env node
/**
 * `make test-containers`: the tests with TEST_INFRA=containers, where NATS and
 * FerretDB run as containers started through testcontainers, against podman's
 * Docker-compatible API (`podman system service` on a private socket) and the
 * transmute/nats and transmute/ferretdb images `make images` built: no Docker
 * engine, no registry, no Ryuk (its image cannot be pulled here; each test
 * stops its own containers).
 *
 *   node libs/devstack/dist/cli/test-containers.js [-- <jest args>]   (default: --selectProjects integration e2e)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { imageSet } from '../images/image-set';
import { podmanCommand, podmanOutput, requirePodman } from '../images/podman';
import { ManagedProcess } from '../process/managed-process';
import { repoRoot } from '../repo-root';

const SOCKET_TIMEOUT_MS = 30_000;

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true });
  const jestArgs = positionals.length > 0 ? positionals : ['--selectProjects', 'integration', 'e2e'];
  const root = repoRoot();
  const servers = new Map(imageSet(root).images.map((image) => [image.name, image.ref]));
  const images = { nats: servers.get('nats')!, ferretdb: servers.get('ferretdb')! };
  console.log(await requirePodman());
  for (const ref of Object.values(images)) {
    await podmanOutput(['image', 'exists', ref]).catch(() => {
      throw new Error(`${ref} is not built: run \`make images ONLY=nats,ferretdb\``);
    });
  }

  const socketDir = await mkdtemp(join(tmpdir(), 'transmute-podman-api-'));
  const socket = join(socketDir, 'podman.sock');
  const service = new ManagedProcess({
    name: 'podman-api',
    command: podmanCommand(),
    args: ['system', 'service', '--time=0', `unix://${socket}`],
    output: { kind: 'tail-only' },
  });
  try {
    await waitForApi(socket, service);
    console.log(`podman API on unix://${socket}; NATS ${images.nats}, FerretDB ${images.ferretdb}`);
    return await runTests(root, jestArgs, {
      TEST_INFRA: 'containers',
      DOCKER_HOST: `unix://${socket}`,
      TESTCONTAINERS_RYUK_DISABLED: 'true',
      TEST_INFRA_NATS_IMAGE: images.nats,
      TEST_INFRA_FERRETDB_IMAGE: images.ferretdb,
    });
  } finally {
    await service.stop(10_000);
    await rm(socketDir, { recursive: true, force: true });
  }
}

/** Resolves once GET /_ping on the socket answers 200 (what Docker clients ask first). */
async function waitForApi(socket: string, service: ManagedProcess): Promise<void> {
  const deadline = Date.now() + SOCKET_TIMEOUT_MS;
  for (;;) {
    service.assertRunning();
    if ((await ping(socket)) === 200) return;
    if (Date.now() > deadline) throw new Error(`podman system service did not answer on ${socket} within ${SOCKET_TIMEOUT_MS} ms:\n${service.outputTail(20)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function ping(socket: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/_ping', timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.once('error', () => resolve(0));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

/** `make test`'s runner (its closing "N passed, N failed" line included), with the container settings added. */
function runTests(root: string, jestArgs: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'libs', 'devstack', 'dist', 'cli', 'run-tests.js'), '--', ...jestArgs], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
