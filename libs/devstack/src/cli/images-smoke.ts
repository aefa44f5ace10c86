#!/usr/bin/env node
/**
 * `make images-smoke`: starts every image `make images` built, once, the way
 * the chart runs it, and waits for it to be ready (see images/smoke). Ends
 * with "N passed, N failed"; a failure prints the container's log.
 *
 *   node libs/devstack/dist/cli/images-smoke.js [--only gateway,nats,...]
 */
import { parseArgs } from 'node:util';
import { imageSet } from '../images/image-set';
import { requirePodman } from '../images/podman';
import { selectImages } from '../images/select-images';
import { smokeImages } from '../images/smoke/smoke-images';
import { repoRoot } from '../repo-root';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const images = selectImages(imageSet(repoRoot()).images, values.only);
  console.log(`${await requirePodman()}; starting ${images.length} images, one at a time`);
  const started = Date.now();
  const results = await smokeImages(images, (result) => {
    console.log(`${result.ok ? 'PASS' : 'FAIL'} ${result.name}: ${result.detail}`);
  });
  const failed = results.filter((result) => !result.ok).length;
  console.log(`\nsmoke test of ${results.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
