import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A proof's scratch directory: made on first use, removed by `dispose` (the proof's own). */
export interface ProofScratch {
  dir: () => Promise<string>;
  dispose: () => Promise<void>;
}

export function proofScratch(prefix: string): ProofScratch {
  let made: Promise<string> | undefined;
  return {
    dir: () => (made ??= mkdtemp(join(tmpdir(), prefix))),
    dispose: async () => {
      const dir = await made?.catch(() => undefined);
      made = undefined;
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
