import { accessSync, constants, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ManagedProcess } from '../process/managed-process';
import type { AppImage, HelperImage, ImageSet, ServerImage, TransmuteImage } from './image-set';
import { imageSize, runPodman } from './podman';

export interface BuiltImage {
  name: string;
  ref: string;
  seconds: number;
  bytes: number;
}

export interface BuildImagesOptions {
  root: string;
  set: ImageSet;
  /** Directory for one build log per image. */
  logDir: string;
  /** The environment the build settings come from (process.env). */
  env: NodeJS.ProcessEnv;
  report: (line: string) => void;
}

/** Where a registry mirror's CA bundle is mounted inside build containers (never committed to an image). */
const BUILD_CA_PATH = '/run/transmute-build-ca.crt';

/**
 * Builds the node base (when its recipe changed), then each image in turn
 * with the layer cache, like skaffold's `concurrency: 1`: the first app image
 * fills the shared build-stage layers (pnpm fetch, install, gen:proto) for
 * all the others. Stops at the first failure with the end of its log.
 */
export async function buildImages(images: readonly TransmuteImage[], options: BuildImagesOptions): Promise<BuiltImage[]> {
  const { set, logDir, report } = options;
  await mkdir(logDir, { recursive: true });
  await runStep('node-base', 'bash', [join(options.root, 'libs', 'devstack', 'images', 'node-base', 'build-node-base.sh'), set.nodeBase], options);

  const built: BuiltImage[] = [];
  for (const image of images) {
    const started = Date.now();
    report(`building ${image.ref} ...`);
    const context = image.kind === 'server' ? await stageServerContext(image) : undefined;
    try {
      // --format=docker: the format `docker build` makes, and the one in which
      // buildah honours the Dockerfile's SHELL. In podman's default (OCI),
      // buildah 1.28 only warns and runs the converter's RUN under /bin/sh,
      // without pipefail (containers/buildah#6460).
      const args = ['build', '--pull=never', '--layers', '--format=docker', ...buildArgsOf(image, options, context), '--tag', image.ref];
      const log = join(logDir, `${image.name}.log`);
      const result = await runPodman(args, `build ${image.name}`, { kind: 'file', path: log });
      if (!result.ok) throw new Error(`building ${image.ref} failed (full log: ${log}):\n${result.tail(40)}`);
    } finally {
      if (context !== undefined) await rm(context, { recursive: true, force: true });
    }
    const entry = { name: image.name, ref: image.ref, seconds: (Date.now() - started) / 1000, bytes: await imageSize(image.ref) };
    report(`built ${image.ref} in ${entry.seconds.toFixed(0)} s, ${(entry.bytes / 1e6).toFixed(0)} MB`);
    built.push(entry);
  }
  return built;
}

/** podman build arguments after `build`: file, target, build args, volumes, context. */
function buildArgsOf(image: TransmuteImage, options: BuildImagesOptions, stagedContext: string | undefined): string[] {
  switch (image.kind) {
    case 'app':
      return appBuildArgs(image, options);
    case 'server':
      return ['--file', join(stagedContext!, 'Containerfile'), stagedContext!];
    case 'helper':
      return helperBuildArgs(image, options);
  }
}

function appBuildArgs(image: AppImage, { root, set, env }: BuildImagesOptions): string[] {
  const { artifact } = image;
  const buildArgs: Record<string, string> = { ...artifact.buildArgs, NODE_IMAGE: set.nodeBase };
  // The repository's own tooling already trusts what `make` trusts: the
  // Makefile turns corepack's signature check off for the registry mirror
  // (COREPACK_INTEGRITY_KEYS=0), so the image build does the same, through the
  // Dockerfile's documented switch.
  if (env['COREPACK_INTEGRITY_KEYS'] === '0') buildArgs['COREPACK_VERIFY_SIGNATURE'] = 'false';
  const volumes: string[] = [];
  const extraCa = readableFile(env['NODE_EXTRA_CA_CERTS']);
  if (extraCa !== undefined) {
    volumes.push('--volume', `${extraCa}:${BUILD_CA_PATH}:ro`);
    buildArgs['NODE_EXTRA_CA_CERTS'] = BUILD_CA_PATH;
    // The converter's pip engines (document.pip.txt) come through the same proxy.
    if (artifact.target === 'converter') buildArgs['PIP_CERT'] = BUILD_CA_PATH;
  }
  return [
    '--file',
    join(root, artifact.context, artifact.dockerfile),
    '--target',
    artifact.target,
    ...Object.entries(buildArgs).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]),
    ...volumes,
    join(root, artifact.context),
  ];
}

function helperBuildArgs(image: HelperImage, { set }: BuildImagesOptions): string[] {
  return ['--file', join(image.dir, 'Containerfile'), '--build-arg', `BASE_IMAGE=${set.nodeBase}`, image.dir];
}

/**
 * A server image's build context: its Containerfile, its static binary and
 * companions (nats-meta-check beside nats-server) and an empty data/
 * directory. Fixed modification times, so an unchanged binary
 * hits the layer cache and keeps its image id.
 */
async function stageServerContext(image: ServerImage): Promise<string> {
  const binaries = [image.binary, ...image.companions];
  for (const binary of binaries) {
    try {
      accessSync(binary, constants.X_OK);
    } catch {
      throw new Error(`${binary} is missing: \`libs/devstack/bin/install-tools.sh images\` builds it (make images runs it)`);
    }
  }
  const context = await mkdtemp(join(tmpdir(), `transmute-image-${image.name}-`));
  const fixed = new Date('2000-01-01T00:00:00Z');
  const names = binaries.map((binary) => basename(binary));
  await copyFile(join(image.dir, 'Containerfile'), join(context, 'Containerfile'));
  for (const binary of binaries) await copyFile(binary, join(context, basename(binary)));
  await mkdir(join(context, 'data'));
  for (const entry of ['Containerfile', ...names, 'data']) await utimes(join(context, entry), fixed, fixed);
  return context;
}

function readableFile(path: string | undefined): string | undefined {
  if (path === undefined || path === '' || !existsSync(path)) return undefined;
  return path;
}

/** A helper script that must succeed, its output in <logDir>/<name>.log. */
async function runStep(name: string, command: string, args: string[], { logDir, report }: BuildImagesOptions): Promise<void> {
  const log = join(logDir, `${name}.log`);
  const started = Date.now();
  const managed = new ManagedProcess({ name, command, args, output: { kind: 'file', path: log } });
  const { code } = await managed.exited;
  if (code !== 0) throw new Error(`${name} failed (full log: ${log}):\n${managed.outputTail(40)}`);
  report(`${managed.outputTail(1)} [${((Date.now() - started) / 1000).toFixed(0)} s]`);
}
