#!/usr/bin/env node
/**
 * `make images`: every Transmute image (skaffold.yaml's list, from the root
 * Dockerfile), the in-cluster servers (NATS, FerretDB, MinIO) and the test
 * helper, built with rootful podman on a base made here, tagged for the
 * chart's defaults. Ends with each image's size and build time.
 *
 *   node libs/devstack/dist/cli/images.js [--only gateway,nats,...]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildImages } from '../images/build-images';
import { imageSet } from '../images/image-set';
import { requirePodman } from '../images/podman';
import { selectImages } from '../images/select-images';
import { repoRoot } from '../repo-root';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const root = repoRoot();
  const set = imageSet(root);
  const images = selectImages(set.images, values.only);
  console.log(`${await requirePodman()}; base ${set.nodeBase}; ${images.length} images`);

  const started = Date.now();
  const built = await buildImages(images, { root, set, logDir: join(root, '.transmute', 'images'), env: process.env, report: (line) => console.log(line) });
  const seconds = (Date.now() - started) / 1000;

  const width = Math.max(...built.map((image) => image.ref.length));
  console.log(`\n${'image'.padEnd(width)}  size (MB)  build (s)`);
  for (const image of built) {
    console.log(`${image.ref.padEnd(width)}  ${(image.bytes / 1e6).toFixed(0).padStart(9)}  ${image.seconds.toFixed(0).padStart(9)}`);
  }
  console.log(`${built.length} images built in ${seconds.toFixed(0)} s (logs in .transmute/images/)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
