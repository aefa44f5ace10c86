import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConverterFamily, PairDeclaration } from '../../families/family';
import { assertProduced, withTimeLimit } from '../../work/conversion-guards';
import type { FamilyProof } from '../family-proof';
import type { PairKey } from '../pair-selection';
import type { Finding } from './findings';

/** The two results of one option check, converted from the same source with different option values. */
export interface OptionRun {
  pair: PairKey;
  source: string;
  first: string;
  second: string;
  /** A folder the check may write into; removed afterwards. */
  scratch: string;
  signal: AbortSignal;
}

/**
 * One promise of one option: convert twice with different values and verify
 * the difference the option promises (quality: size and PSNR move together;
 * width: that width ...). Runs on every output format that lists the option
 * (one in a subset run), from the first of `inputs` that reaches it.
 */
export interface OptionCheck {
  option: string;
  /** What the option promises, for the report. */
  promise: string;
  /** Option values of the first and the second conversion; a function picks them from the pair's own option (its values, its range). */
  runs: OptionValues | ((pair: PairDeclaration) => OptionValues);
  /** Input formats to convert from, best first; default the first that reaches the output. */
  inputs?: readonly string[];
  /** Outputs this check applies to (another check covers the rest); default all that list the option. */
  outputs?: (outputFormat: string, inputFormat: string) => boolean;
  /** A source other than the family's sample (e.g. a longer clip for trims). */
  source?: (inputFormat: string, dir: string, signal: AbortSignal) => Promise<string>;
  verify(run: OptionRun, values: OptionValues): Promise<Finding[]>;
}

export type OptionValues = readonly [Record<string, unknown>, Record<string, unknown>];

export interface OptionCheckResult extends PairKey {
  option: string;
  promise: string;
  passed: boolean;
  findings: Finding[];
  ms: number;
  error?: string;
}

export interface OptionRunOptions {
  family: ConverterFamily;
  proof: FamilyProof;
  subset?: boolean;
  workDir: string;
  timeoutMs?: number;
  /** Only these options (e.g. for a quick look at one). */
  only?: (option: string) => boolean;
  onResult?: (result: OptionCheckResult) => void;
}

/**
 * Runs every option check of a family. An option the family lists with no
 * check at all is a failure: an option nobody verified may do nothing.
 */
export async function runOptionChecks(options: OptionRunOptions): Promise<OptionCheckResult[]> {
  const { family, proof } = options;
  const checks = proof.optionChecks ?? [];
  const declared = family.pairs();
  const results: OptionCheckResult[] = [];
  const timeoutMs = options.timeoutMs ?? 180_000;
  await mkdir(options.workDir, { recursive: true });
  const scratch = await mkdtemp(join(options.workDir, `options-${family.name}-`));
  const samples = new Map<string, Promise<string>>();
  const sample = (check: OptionCheck, format: string, signal: AbortSignal) => {
    const key = `${checks.indexOf(check)}:${format}`;
    const known = check.source ? samples.get(key) : samples.get(format);
    if (known) return known;
    const dir = join(scratch, 'samples', check.source ? key.replace(':', '-') : format);
    const made = mkdir(dir, { recursive: true }).then(() => (check.source ? check.source(format, dir, signal) : proof.generateSample(format, dir, signal)));
    samples.set(check.source ? key : format, made);
    return made;
  };

  const listedOptions = new Set(declared.flatMap((pair) => pair.options.map((option) => option.name)));
  for (const name of listedOptions) {
    if (options.only && !options.only(name)) continue;
    if (!checks.some((check) => check.option === name)) {
      const result = { option: name, promise: '', inputFormat: '', outputFormat: '', passed: false, findings: [], ms: 0, error: `no effect check for the ${name} option` };
      results.push(result);
      options.onResult?.(result);
    }
  }

  let counter = 0;
  try {
    await family.start?.();
    for (const check of checks) {
      if (options.only && !options.only(check.option)) continue;
      for (const pair of targetsOf(check, declared, options.subset ?? false)) {
        const begin = Date.now();
        const base = { option: check.option, promise: check.promise, inputFormat: pair.inputFormat, outputFormat: pair.outputFormat };
        const dir = join(scratch, `run-${(counter += 1)}`);
        try {
          await mkdir(dir, { recursive: true });
          const signal = AbortSignal.timeout(timeoutMs * 3);
          const source = await sample(check, pair.inputFormat, signal);
          const implied = impliedOptions(pair, check.option);
          const convert = async (values: Record<string, unknown>, name: string) => {
            const outputPath = join(dir, `${name}.${pair.outputFormat}`);
            await withTimeLimit(timeoutMs, new AbortController().signal, (limit) =>
              family.convert({ ...pair, inputPath: source, outputPath, options: { ...implied, ...values }, signal: limit, reportProgress: () => undefined }),
            );
            await assertProduced(outputPath, pair.outputFormat);
            return outputPath;
          };
          const runs = typeof check.runs === 'function' ? check.runs(pair) : check.runs;
          const first = await convert(runs[0], 'first');
          const second = await convert(runs[1], 'second');
          const findings = await check.verify({ pair: { inputFormat: pair.inputFormat, outputFormat: pair.outputFormat }, source, first, second, scratch: dir, signal }, runs);
          const passed = findings.length > 0 && findings.every((finding) => finding.passed);
          const failed = findings.filter((finding) => !finding.passed);
          const result = {
            ...base,
            passed,
            findings,
            ms: Date.now() - begin,
            ...(passed ? {} : { error: failed.map((f) => `${f.check}: ${f.detail}`).join('; ') || 'nothing was compared' }),
          };
          results.push(result);
          options.onResult?.(result);
        } catch (error) {
          const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 400);
          const result = { ...base, passed: false, findings: [], ms: Date.now() - begin, error: message };
          results.push(result);
          options.onResult?.(result);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await family.stop?.();
    await rm(scratch, { recursive: true, force: true });
  }
  return results;
}

/** One pair per output format that lists the option (the first only in a subset run), from the preferred input. */
export function targetsOf(check: OptionCheck, declared: readonly PairDeclaration[], subset: boolean): PairDeclaration[] {
  const byOutput = new Map<string, PairDeclaration[]>();
  for (const pair of declared) {
    if (!pair.options.some((option) => option.name === check.option)) continue;
    if (check.outputs && !check.outputs(pair.outputFormat, pair.inputFormat)) continue;
    byOutput.set(pair.outputFormat, [...(byOutput.get(pair.outputFormat) ?? []), pair]);
  }
  const chosen: PairDeclaration[] = [];
  for (const candidates of byOutput.values()) {
    const preferred = (check.inputs ?? []).map((input) => candidates.find((pair) => pair.inputFormat === input)).find(Boolean);
    chosen.push(preferred ?? candidates[0]!);
  }
  return subset ? chosen.slice(0, 1) : chosen;
}

/** Values other options must have for this one to apply (its `applies_when`). */
function impliedOptions(pair: PairDeclaration, name: string): Record<string, unknown> {
  const option = pair.options.find((candidate) => candidate.name === name);
  return { ...(option?.appliesWhen ?? {}) };
}
