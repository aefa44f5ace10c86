import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FamilyProof } from './family-proof';

export type SampleMaker = (format: string, signal: AbortSignal) => Promise<string>;

/**
 * Makes each format's sample at most once per proof, since samples are built
 * from one another (and engines are slow); a failed attempt is forgotten so a
 * later pair can retry it.
 */
export function cachedSampleMaker(make: SampleMaker): SampleMaker {
  const made = new Map<string, Promise<string>>();
  return (format, signal) => {
    let sample = made.get(format);
    if (sample) return sample;
    sample = make(format, signal);
    made.set(format, sample);
    sample.catch(() => made.delete(format));
    return sample;
  };
}

/** A proof whose samples come from `make` (usually a cachedSampleMaker), each copied into the directory the runner asks for. */
export function copiedSampleProof(family: string, make: SampleMaker, verifyOutput: FamilyProof['verifyOutput']): FamilyProof {
  return {
    family,
    async generateSample(inputFormat, dir, signal) {
      const source = await make(inputFormat, signal);
      await mkdir(dir, { recursive: true });
      const target = join(dir, `sample.${inputFormat}`);
      await copyFile(source, target);
      return target;
    },
    verifyOutput,
  };
}
