import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConverterFamily } from '../families/family';
import { assertProduced, withTimeLimit } from '../work/conversion-guards';
import type { FamilyProof, NarrowedOption, WithdrawnPair } from './family-proof';
import type { OptionCheckResult } from './fidelity/option-checks';
import type { Finding } from './fidelity/findings';
import { type PairKey, coveringSubset, duplicatePairs } from './pair-selection';

export type PairStage = 'sample' | 'convert' | 'verify' | 'content';

export interface PairResult extends PairKey {
  passed: boolean;
  ms: number;
  /** Where a failed pair broke, and why. */
  stage?: PairStage;
  error?: string;
  /** With --fidelity: what the content check compared, passed or not. */
  checks?: Finding[];
  /** The loss the family declares for the pair, if any. */
  note?: string;
}

export interface FamilyMatrixReport {
  family: string;
  engineVersion: string;
  mode: 'full' | 'subset';
  /** Whether outputs were held to their source's content, not only their format. */
  fidelity: boolean;
  /** Pairs the family's manifest lists. */
  listed: number;
  inputFormats: number;
  outputFormats: number;
  /** Pairs this run converted (all of them, or the covering subset). */
  run: number;
  passed: number;
  failures: PairResult[];
  durationMs: number;
  results: PairResult[];
  /** With --fidelity: the option effect checks and their outcomes. */
  options?: OptionCheckResult[];
  /** Pairs the family withdrew and options it narrowed, as its proof records them. */
  withdrawn?: WithdrawnPair[];
  narrowed?: NarrowedOption[];
}

export interface MatrixRunOptions {
  family: ConverterFamily;
  proof: FamilyProof;
  subset?: boolean;
  /** Also compare each output's content with its source (the proof's checkContent). */
  fidelity?: boolean;
  /** Hold every pair to the full content, as if none declared a loss: how the catalogue fared before losses were declared. */
  withoutNotes?: boolean;
  /** Conversions at once; the machine's cores are the useful bound. */
  concurrency?: number;
  /** Scratch directory; removed afterwards. */
  workDir: string;
  pairTimeoutMs?: number;
  /** Only these pairs (e.g. `--input png`); default all. */
  filter?: (pair: PairKey) => boolean;
  onResult?: (result: PairResult) => void;
}

const DEFAULT_PAIR_TIMEOUT_MS = 120_000;

/**
 * Drives listed pairs through the family's own `convert`, in process: one
 * sample per input format made by the proof, every output checked by the
 * proof. The family is started and stopped around the run like a worker would.
 */
export async function runFamilyMatrix(options: MatrixRunOptions): Promise<FamilyMatrixReport> {
  const { family, proof } = options;
  const started = Date.now();
  const declared = family.pairs();
  const listed = declared.map(({ inputFormat, outputFormat }) => ({ inputFormat, outputFormat }));
  const notes = new Map(declared.filter((pair) => pair.note && !options.withoutNotes).map((pair) => [`${pair.inputFormat}->${pair.outputFormat}`, pair.note!]));
  const wanted = listed.filter((pair) => options.filter?.(pair) ?? true);
  const pairs = options.subset ? coveringSubset(wanted) : wanted;
  await mkdir(options.workDir, { recursive: true });
  const scratch = await mkdtemp(join(options.workDir, `matrix-${family.name}-`));
  const samples = new Map<string, Promise<string>>();
  const results: PairResult[] = [];
  const timeoutMs = options.pairTimeoutMs ?? DEFAULT_PAIR_TIMEOUT_MS;

  const sampleOf = (format: string): Promise<string> => {
    let sample = samples.get(format);
    if (!sample) {
      const dir = join(scratch, 'samples', format);
      sample = mkdir(dir, { recursive: true }).then(() => proof.generateSample(format, dir, AbortSignal.timeout(timeoutMs)));
      samples.set(format, sample);
    }
    return sample;
  };

  const runPair = async (pair: PairKey, index: number): Promise<PairResult> => {
    const begin = Date.now();
    let stage: PairStage = 'sample';
    const note = notes.get(`${pair.inputFormat}->${pair.outputFormat}`);
    const described = note ? { note } : {};
    try {
      const inputPath = await sampleOf(pair.inputFormat);
      stage = 'convert';
      const outputPath = join(scratch, 'out', `${index}-${pair.inputFormat}.${pair.outputFormat}`);
      await mkdir(join(scratch, 'out'), { recursive: true });
      // The same guards the convert handler applies to every conversion.
      await withTimeLimit(timeoutMs, new AbortController().signal, (signal) =>
        family.convert({ ...pair, inputPath, outputPath, options: {}, signal, reportProgress: () => undefined }),
      );
      stage = 'verify';
      await assertProduced(outputPath, pair.outputFormat);
      await proof.verifyOutput(pair.outputFormat, outputPath);
      if (options.fidelity) {
        stage = 'content';
        if (!proof.checkContent) throw new Error(`the ${family.name} proof has no content check`);
        const checks = await proof.checkContent({ ...pair, ...described }, inputPath, outputPath, AbortSignal.timeout(timeoutMs));
        const failed = checks.filter((check) => !check.passed);
        await rm(outputPath, { force: true });
        if (checks.length === 0) return { ...pair, ...described, passed: false, ms: Date.now() - begin, stage, error: 'the content check compared nothing', checks };
        if (failed.length > 0) {
          const error = failed.map((check) => `${check.check}: ${check.detail}`).join('; ');
          return { ...pair, ...described, passed: false, ms: Date.now() - begin, stage, error, checks };
        }
        return { ...pair, ...described, passed: true, ms: Date.now() - begin, checks };
      }
      await rm(outputPath, { force: true });
      return { ...pair, ...described, passed: true, ms: Date.now() - begin };
    } catch (error) {
      return { ...pair, ...described, passed: false, ms: Date.now() - begin, stage, error: describe(error) };
    }
  };

  try {
    await family.start?.();
    const duplicates = duplicatePairs(declared);
    for (const key of duplicates) {
      const [inputFormat, outputFormat] = key.split('->') as [string, string];
      results.push({ inputFormat, outputFormat, passed: false, ms: 0, stage: 'convert', error: 'listed twice in the manifest' });
    }
    let next = 0;
    const worker = async () => {
      while (next < pairs.length) {
        const index = next++;
        const result = await runPair(pairs[index]!, index);
        results.push(result);
        options.onResult?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  } finally {
    await family.stop?.();
    await rm(scratch, { recursive: true, force: true });
  }

  const failures = results.filter((result) => !result.passed);
  return {
    family: family.name,
    engineVersion: family.engineVersion,
    mode: options.subset ? 'subset' : 'full',
    fidelity: options.fidelity ?? false,
    listed: listed.length,
    inputFormats: new Set(listed.map((pair) => pair.inputFormat)).size,
    outputFormats: new Set(listed.map((pair) => pair.outputFormat)).size,
    run: pairs.length,
    passed: results.length - failures.length,
    failures,
    durationMs: Date.now() - started,
    results,
  };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 600);
}
