/**
 * Words in order: the test every text-carrying target must pass. Both sides
 * are cut into lower-case words of letters and digits; the expected words
 * must appear in the output in the same order (other words may come between,
 * such as markup a format adds).
 */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface WordOrder {
  /** How many expected words were found, in order. */
  found: number;
  expected: number;
  /** The first expected word that is missing (or out of order), when any. */
  firstMissing?: string;
}

/** Greedy subsequence match: each expected word is looked for after the previous one. */
export function wordsInOrder(expected: readonly string[], text: string): WordOrder {
  const words = wordsOf(text);
  let at = 0;
  let found = 0;
  let firstMissing: string | undefined;
  for (const word of expected) {
    const index = words.indexOf(word, at);
    if (index === -1) {
      firstMissing ??= word;
      continue;
    }
    found += 1;
    at = index + 1;
  }
  return { found, expected: expected.length, firstMissing };
}

export function describeWordOrder(order: WordOrder): string {
  const base = `${order.found} of ${order.expected} words in order`;
  return order.firstMissing ? `${base}; first missing: "${order.firstMissing}"` : base;
}
