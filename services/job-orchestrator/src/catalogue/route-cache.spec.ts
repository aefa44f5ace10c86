import type { ConversionRoute } from './catalogue.client';
import { type Pair, RouteCache } from './route-cache';

/** A catalogue that owns png→jpg and jpg→webp, and records what it was asked. */
function catalogue() {
  const asked: string[][] = [];
  const families: Record<string, string> = { 'png>jpg': 'image', 'jpg>webp': 'image' };
  const load = async (pairs: Pair[]): Promise<ConversionRoute[]> => {
    asked.push(pairs.map((pair) => `${pair.inputFormat}>${pair.outputFormat}`));
    return pairs.map((pair) => ({ ...pair, family: families[`${pair.inputFormat}>${pair.outputFormat}`] ?? '' }));
  };
  return { asked, families, load };
}

const png = { inputFormat: 'png', outputFormat: 'jpg' };
const jpg = { inputFormat: 'jpg', outputFormat: 'webp' };
const dwg = { inputFormat: 'dwg', outputFormat: 'pdf' };

describe('RouteCache', () => {
  it('answers a held pair without asking, and asks only for the pairs it does not hold, in order', async () => {
    const { asked, load } = catalogue();
    const cache = new RouteCache(5_000);
    expect(await cache.routes([png], load, 0)).toEqual([{ ...png, family: 'image' }]);
    expect(await cache.routes([jpg, png], load, 1_000)).toEqual([
      { ...jpg, family: 'image' },
      { ...png, family: 'image' },
    ]);
    expect(asked).toEqual([['png>jpg'], ['jpg>webp']]);
  });

  it('asks again every time for a pair no family owns, so a family that starts counts at once', async () => {
    const { asked, families, load } = catalogue();
    const cache = new RouteCache(5_000);
    expect(await cache.routes([dwg], load, 0)).toEqual([{ ...dwg, family: '' }]);
    families['dwg>pdf'] = 'cad';
    expect(await cache.routes([dwg], load, 1)).toEqual([{ ...dwg, family: 'cad' }]);
    expect(asked).toEqual([['dwg>pdf'], ['dwg>pdf']]);
  });

  it('forgets a route once its time is up, so a family that stopped is seen within it', async () => {
    const { asked, families, load } = catalogue();
    const cache = new RouteCache(5_000);
    await cache.routes([png], load, 0);
    delete families['png>jpg'];
    expect(await cache.routes([png], load, 4_999)).toEqual([{ ...png, family: 'image' }]);
    expect(await cache.routes([png], load, 5_000)).toEqual([{ ...png, family: '' }]);
    expect(asked).toHaveLength(2);
  });

  it('holds at most its limit of pairs, dropping the oldest', async () => {
    const { asked, load } = catalogue();
    const cache = new RouteCache(5_000, 1);
    await cache.routes([png], load, 0);
    await cache.routes([jpg], load, 0);
    await cache.routes([png], load, 0);
    expect(asked).toEqual([['png>jpg'], ['jpg>webp'], ['png>jpg']]);
  });
});
