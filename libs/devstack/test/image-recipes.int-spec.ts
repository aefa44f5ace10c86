import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src';

/**
 * The recipes of the images `make images` builds besides the root Dockerfile
 * (which e2e/src/chart lints): clean under hadolint at every severity, like
 * the Dockerfile. Building and starting them is `make images` and
 * `make images-smoke` (they need podman and minutes, not a unit of `make test`).
 */
describe('image recipes (libs/devstack/images)', () => {
  const root = repoRoot();
  const imagesDir = join(root, 'libs', 'devstack', 'images');
  const containerfiles = readdirSync(imagesDir)
    .map((name) => join(imagesDir, name, 'Containerfile'))
    .filter((path) => existsSync(path));

  it('has one for each server and the test helper', () => {
    expect(containerfiles.map((path) => path.slice(imagesDir.length + 1)).sort()).toEqual([
      'ferretdb/Containerfile',
      'minio/Containerfile',
      'nats/Containerfile',
      'test-helper/Containerfile',
    ]);
  });

  it('are clean under hadolint', () => {
    const hadolint = join(root, '.tools', 'venv', 'bin', 'hadolint');
    if (!existsSync(hadolint)) throw new Error(`${hadolint} is missing: run \`make test-tools\``);
    const result = spawnSync(hadolint, ['--no-color', '--failure-threshold', 'info', ...containerfiles], { encoding: 'utf8' });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: '' });
  });

  it('run the servers as the chart user, never as root', () => {
    for (const path of containerfiles) {
      const text = readFileSync(path, 'utf8');
      expect({ path, user: /^USER (\S+)$/m.exec(text)?.[1] }).toEqual({ path, user: '10001:10001' });
    }
  });
});
