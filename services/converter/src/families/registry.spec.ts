import { FAMILIES } from './registry';

/**
 * The catalogue's readable formats (`GET /v1/formats`) are the union of the
 * families' inputs. Pinned to the exact numbers, so a format that appears or
 * disappears is a deliberate change with its proof (docs/decisions.md,
 * "More readable formats").
 */
describe('readable formats across the families', () => {
  const inputs = Object.fromEntries(
    Object.entries(FAMILIES).map(([name, make]) => [
      name,
      new Set(
        make()
          .pairs()
          .map((pair) => pair.inputFormat),
      ),
    ]),
  );

  it('counts 502 readable formats in all', () => {
    const all = new Set(Object.values(inputs).flatMap((formats) => [...formats]));
    expect(all.size).toBe(502);
  });

  it.each([
    ['image', 147],
    ['3d', 28],
    ['document', 80],
    ['ebook', 24],
    ['font', 17],
    ['video', 81],
    ['audio', 99],
    ['archive', 38],
  ])('the %s family reads %i formats', (family, count) => {
    expect(inputs[family]!.size).toBe(count);
  });
});
