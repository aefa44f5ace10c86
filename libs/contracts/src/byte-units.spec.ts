import { FETCH_CEILING_BYTES, describeBytes } from './byte-units';

describe('byte units', () => {
  it("the import/url ceiling is the spec's 5 GB, decimal like quota", () => {
    expect(FETCH_CEILING_BYTES).toBe(5_000_000_000);
  });

  it.each([
    [5_000_000_000, '5 GB (5000000000 bytes)'],
    [1_000_000, '1 MB (1000000 bytes)'],
    [1_048_576, '1.05 MB (1048576 bytes)'],
    [2_500, '2.5 kB (2500 bytes)'],
    [999, '999 bytes'],
  ])('describes %d as %s', (bytes, text) => {
    expect(describeBytes(bytes)).toBe(text);
  });
});
