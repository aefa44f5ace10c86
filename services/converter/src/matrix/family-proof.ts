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
}
