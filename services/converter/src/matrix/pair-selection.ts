import type { PairDeclaration } from '../families/family';

export interface PairKey {
  inputFormat: string;
  outputFormat: string;
}

/**
 * A small set of pairs that still reads every input format once and writes
 * every output format once: each input takes an output not yet covered when
 * it can, then outputs still uncovered take any input.
 */
export function coveringSubset(pairs: readonly PairKey[]): PairKey[] {
  const chosen: PairKey[] = [];
  const inputsDone = new Set<string>();
  const outputsDone = new Set<string>();
  const byInput = new Map<string, PairKey[]>();
  for (const pair of pairs) byInput.set(pair.inputFormat, [...(byInput.get(pair.inputFormat) ?? []), pair]);
  for (const [input, candidates] of byInput) {
    const pick = candidates.find((pair) => !outputsDone.has(pair.outputFormat)) ?? candidates[0]!;
    chosen.push(pick);
    inputsDone.add(input);
    outputsDone.add(pick.outputFormat);
  }
  for (const pair of pairs) {
    if (outputsDone.has(pair.outputFormat)) continue;
    chosen.push(pair);
    outputsDone.add(pair.outputFormat);
  }
  return chosen;
}

/** Pairs two families could both claim must have one owner; inside one family a pair is listed once. */
export function duplicatePairs(pairs: readonly PairDeclaration[]): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const { inputFormat, outputFormat } of pairs) {
    const key = `${inputFormat}->${outputFormat}`;
    if (seen.has(key)) duplicates.push(key);
    seen.add(key);
  }
  return duplicates;
}
