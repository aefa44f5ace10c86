import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The workspace root: the nearest folder above this file that holds
 * pnpm-workspace.yaml. Resolved from the code's own location (src/ under
 * jest, dist/ once built) so it works from any current directory.
 */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`no pnpm-workspace.yaml found above ${from}: is @transmute/devstack running outside the Transmute workspace?`);
    }
    dir = parent;
  }
}
