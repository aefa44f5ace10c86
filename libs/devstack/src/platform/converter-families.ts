import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';

/**
 * Every family the built converter registers (its `FAMILIES`), asked from the
 * converter itself so this list never drifts from the service. `make up` runs
 * them all; tests pass the subset they need to startPlatform().
 */
export function registeredFamilies(root: string = repoRoot()): string[] {
  const script = join(root, 'services', 'converter', 'dist', 'families', 'list-families.js');
  const output = execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
  const families = JSON.parse(output) as unknown;
  if (!Array.isArray(families) || families.some((family) => typeof family !== 'string') || families.length === 0) {
    throw new Error(`unexpected family list from ${script}: ${output.trim()}`);
  }
  return families as string[];
}
