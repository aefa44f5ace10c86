import type { ConversionOption, FamilyManifest } from '@transmute/contracts';
import { DEFAULT_FAMILY_PRIORITY, familyRank } from './family-priority';

interface Entry {
  family: string;
  options: ConversionOption[];
}

/**
 * An immutable view over the manifests of the running families: the one
 * source for both the format lists and job routing, so every listed pair is a
 * pair jobs accept and the other way round.
 */
export class CatalogueIndex {
  private readonly pairs = new Map<string, Map<string, Entry>>();

  /**
   * @param priority families in order of precedence: a pair several running
   * families convert belongs to the first of them here (unlisted ones come
   * after, by name), so it resolves the same way in every catalogue replica.
   */
  constructor(manifests: readonly FamilyManifest[], priority: readonly string[] = DEFAULT_FAMILY_PRIORITY) {
    const rank = familyRank(priority);
    for (const manifest of [...manifests].sort((a, b) => rank(a.family, b.family))) {
      for (const pair of manifest.pairs) {
        const targets = this.pairs.get(pair.inputFormat) ?? new Map<string, Entry>();
        if (!targets.has(pair.outputFormat)) targets.set(pair.outputFormat, { family: manifest.family, options: pair.options });
        this.pairs.set(pair.inputFormat, targets);
      }
    }
  }

  /** Every readable format, sorted. */
  inputs(): string[] {
    return [...this.pairs.keys()].sort();
  }

  /** Formats `input` converts to, sorted; null when nothing reads `input`. */
  targets(input: string): string[] | null {
    const targets = this.pairs.get(input);
    return targets ? [...targets.keys()].sort() : null;
  }

  options(input: string, output: string): ConversionOption[] | null {
    return this.pairs.get(input)?.get(output)?.options ?? null;
  }

  family(input: string, output: string): string {
    return this.pairs.get(input)?.get(output)?.family ?? '';
  }
}
