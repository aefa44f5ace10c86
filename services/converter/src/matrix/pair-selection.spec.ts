import { coveringSubset, duplicatePairs } from './pair-selection';

const pairs = (list: string) =>
  list.split(' ').map((pair) => {
    const [inputFormat, outputFormat] = pair.split('>') as [string, string];
    return { inputFormat, outputFormat };
  });

describe('coveringSubset', () => {
  it('reads every input once and writes every output once, with few pairs', () => {
    const all = pairs('a>x a>y a>z b>x b>y b>z c>x c>y c>z d>x');
    const subset = coveringSubset(all);
    expect(new Set(subset.map((pair) => pair.inputFormat))).toEqual(new Set(['a', 'b', 'c', 'd']));
    expect(new Set(subset.map((pair) => pair.outputFormat))).toEqual(new Set(['x', 'y', 'z']));
    expect(subset).toHaveLength(4);
  });

  it('adds pairs for outputs the inputs did not reach', () => {
    const subset = coveringSubset(pairs('a>x a>y a>z'));
    expect(subset.map((pair) => pair.outputFormat).sort()).toEqual(['x', 'y', 'z']);
  });

  it('is empty for no pairs', () => {
    expect(coveringSubset([])).toEqual([]);
  });
});

describe('duplicatePairs', () => {
  it('names a pair listed twice', () => {
    const declared = [...pairs('a>x a>y a>x')].map((pair) => ({ ...pair, options: [] }));
    expect(duplicatePairs(declared)).toEqual(['a->x']);
  });
});
