import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';

export type LocalTool = 'nats-server' | 'nats-meta-check' | 'ferretdb' | 'minio' | 'fake-gcs-server';

/** Tools only the tests use, installed by `install-tools.sh test` (make test-tools), not by make up. */
const TEST_ONLY = new Set<LocalTool>(['minio', 'fake-gcs-server']);

/** Where libs/devstack/bin/install-tools.sh puts the native tools. */
export function defaultToolsBin(): string {
  return join(repoRoot(), '.tools', 'bin');
}

/**
 * The path of an installed tool. A missing tool is an error, never a reason to
 * skip: tests that silently do nothing are worse than tests that fail.
 */
export function requireTool(toolsBin: string, tool: LocalTool): string {
  const path = join(toolsBin, tool);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    const target = TEST_ONLY.has(tool) ? 'make test-tools` (libs/devstack/bin/install-tools.sh test)' : 'make tools` (libs/devstack/bin/install-tools.sh)';
    throw new Error(`${tool} not found at ${path}: run \`${target}`);
  }
  return path;
}
