import { DEFAULT_FAMILY_PRIORITY, familyRank } from './family-priority';

describe('familyRank', () => {
  it.each([
    ['listed before unlisted', ['image', 'zeta'], ['zeta', 'image'], ['image', 'zeta']],
    ['listed in list order', ['document', 'image'], ['image', 'document'], ['document', 'image']],
    ['unlisted by name', [], ['b', 'a', 'c'], ['a', 'b', 'c']],
  ])('%s', (_name, priority, families, expected) => {
    expect([...families].sort(familyRank(priority))).toEqual(expected);
  });

  it('puts image before document by default, so pdf to png goes to the image family', () => {
    expect(['document', 'image'].sort(familyRank(DEFAULT_FAMILY_PRIORITY))).toEqual(['image', 'document']);
  });
});
