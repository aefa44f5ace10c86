import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readSkaffoldArtifacts, type SkaffoldArtifact } from './skaffold-artifacts';

/**
 * Images are stored under docker.io/<name>: a reference without a registry,
 * such as the chart's `transmute/gateway:0.1.0`, means docker.io to
 * containerd and Kubernetes, so images exported from podman's storage under
 * this name are found by the chart's defaults with no re-tagging. podman
 * itself resolves the short name to them too.
 */
const LOCAL_REGISTRY = 'docker.io';

/** A Transmute service built from the root Dockerfile (skaffold.yaml's artifacts). */
export interface AppImage {
  kind: 'app';
  /** gateway, job-orchestrator, converter-image ... (the part after transmute/) */
  name: string;
  ref: string;
  artifact: SkaffoldArtifact;
}

/** A server the chart runs in the cluster (NATS, FerretDB, MinIO): one static binary FROM scratch. */
export interface ServerImage {
  kind: 'server';
  name: 'nats' | 'ferretdb' | 'minio';
  ref: string;
  /** Directory under libs/devstack/images holding its Containerfile. */
  dir: string;
  /** The static binary, built by `install-tools.sh images` and linked from .tools/image-bin. */
  binary: string;
  /** Static binaries copied beside it from the same place (nats: its startup probe, nats-meta-check). */
  companions: string[];
}

/** The cluster tests' helper (webhook receiver, curl and jq as a client), on the node base. */
export interface HelperImage {
  kind: 'helper';
  name: 'test-helper';
  ref: string;
  dir: string;
}

export type TransmuteImage = AppImage | ServerImage | HelperImage;

export interface ImageSet {
  /** The Debian + Node.js base made by images/node-base/build-node-base.sh (the Dockerfile's NODE_IMAGE). */
  nodeBase: string;
  images: TransmuteImage[];
}

/**
 * Every image `make images` builds, in build order, named and tagged from the
 * files that already own each fact: skaffold.yaml (the Transmute images, their
 * targets and build arguments), the chart's appVersion (their tag), and the
 * devstack's pinned versions of NATS, FerretDB and MinIO (theirs).
 */
export function imageSet(root: string, nodeVersion: string = process.version): ImageSet {
  const appVersion = chartAppVersion(root);
  const imagesDir = join(root, 'libs', 'devstack', 'images');
  const imageBin = join(root, '.tools', 'image-bin');
  const apps: AppImage[] = readSkaffoldArtifacts(root).map((artifact) => {
    if (!artifact.image.startsWith('transmute/')) throw new Error(`skaffold.yaml: image ${artifact.image} is not under transmute/`);
    return { kind: 'app', name: artifact.image.slice('transmute/'.length), ref: localRef(artifact.image, appVersion), artifact };
  });
  const versions = serverVersions(root);
  const servers: ServerImage[] = (['nats', 'ferretdb', 'minio'] as const).map((name) => ({
    kind: 'server',
    name,
    ref: localRef(`transmute/${name}`, versions[name]),
    dir: join(imagesDir, name),
    binary: join(imageBin, name === 'nats' ? 'nats-server' : name),
    companions: name === 'nats' ? [join(imageBin, 'nats-meta-check')] : [],
  }));
  const helper: HelperImage = { kind: 'helper', name: 'test-helper', ref: localRef('transmute/test-helper', appVersion), dir: join(imagesDir, 'test-helper') };
  return {
    nodeBase: `localhost/transmute/node-base:${nodeVersion.replace(/^v/, '')}-bookworm`,
    images: [...apps, ...servers, helper],
  };
}

export function localRef(image: string, tag: string): string {
  return `${LOCAL_REGISTRY}/${image}:${tag}`;
}

/** charts/transmute/Chart.yaml's appVersion: the default tag of every Transmute image. */
export function chartAppVersion(root: string): string {
  const file = join(root, 'charts', 'transmute', 'Chart.yaml');
  const { appVersion } = (parse(readFileSync(file, 'utf8')) ?? {}) as { appVersion?: unknown };
  if (typeof appVersion !== 'string' || !/^[\w.-]+$/.test(appVersion)) throw new Error(`${file}: appVersion must be a plain version string`);
  return appVersion;
}

/**
 * The versions the devstack runs (and the tests test): nats-server's from
 * install-tools.sh, FerretDB's from the launcher's go.mod, MinIO's from
 * go-tools.txt (a Go pseudo-version, a valid tag without its leading v).
 */
export function serverVersions(root: string): Record<ServerImage['name'], string> {
  const bin = join(root, 'libs', 'devstack', 'bin');
  const read = (path: string): string => readFileSync(path, 'utf8');
  const match = (text: string, pattern: RegExp, what: string): string => {
    const found = pattern.exec(text)?.[1];
    if (found === undefined) throw new Error(`cannot read the ${what} version (${pattern.source})`);
    return found;
  };
  return {
    nats: match(read(join(bin, 'install-tools.sh')), /^NATS_SERVER_VERSION="v([\w.-]+)"$/m, 'nats-server'),
    ferretdb: match(read(join(root, 'libs', 'devstack', 'ferretdb-launcher', 'go.mod')), /github\.com\/FerretDB\/FerretDB v([\w.-]+)\s*$/m, 'FerretDB'),
    minio: match(read(join(bin, 'packages', 'go-tools.txt')), /^minio\s+\S+@v([\w.-]+)$/m, 'MinIO'),
  };
}
