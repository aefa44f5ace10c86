import type { ContentCheck } from './fidelity/findings';
import type { OptionCheck } from './fidelity/option-checks';

/** A pair the family once listed and no longer does, with the reason (a content loss the matrix found). */
export interface WithdrawnPair {
  inputFormat: string;
  outputFormat: string;
  reason: string;
}

/** An option taken off some pairs because it had no measurable effect there. */
export interface NarrowedOption {
  option: string;
  /** Where it is no longer offered, e.g. "txt outputs". */
  where: string;
  reason: string;
}

/**
 * How the matrix proves a family's pairs, kept apart from production code:
 * a sample of every input format, made by the engines themselves at test
 * time, and a check that an output really is the format it claims.
 */
export interface FamilyProof {
  family: string;
  /** Writes a small valid file of `inputFormat` into `dir` and returns its path. */
  generateSample(inputFormat: string, dir: string, signal: AbortSignal): Promise<string>;
  /** Throws, with the reason, unless `path` is a readable `outputFormat` file (magic bytes or a probe). */
  verifyOutput(outputFormat: string, path: string): Promise<void>;
  /** `pnpm matrix --fidelity`: compares an output's content with its source through independent readers. */
  checkContent?: ContentCheck;
  /** `pnpm matrix --fidelity`: one check per option the family lists, each converting twice. */
  optionChecks?: OptionCheck[];
  /** Pairs withdrawn from the catalogue because they lost content, for the report. */
  withdrawn?: WithdrawnPair[];
  /** Options narrowed because they had no effect on some pairs, for the report. */
  narrowed?: NarrowedOption[];
  /** Removes the scratch files its samples were made from; called once its runner is done with it. */
  dispose?: () => Promise<void>;
}
