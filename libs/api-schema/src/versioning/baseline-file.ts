import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed record of the /v1 surface (docs/decisions.md, "Versioning"). It only grows. */
export const BASELINE_FILE = join(__dirname, '..', '..', 'contract', 'v1-surface.txt');

const HEADER = [
  '# The /v1 contract surface: every route, request field and response field with its JSON type.',
  '# Written by `pnpm contract:baseline`, which only adds lines. A line may leave only through a',
  '# deprecation whose sunset has passed (libs/api-schema/src/versioning/deprecations.ts); deleting',
  '# one by hand is a breaking change to refuse in review.',
];

export function readBaseline(file = BASELINE_FILE): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export function writeBaseline(lines: readonly string[], file = BASELINE_FILE): void {
  writeFileSync(file, `${[...HEADER, ...[...new Set(lines)].sort()].join('\n')}\n`);
}
