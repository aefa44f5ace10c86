import type { KvEntry } from './kv-bucket';
import { LastSeenEntries, SHARED_KEY_MS } from './last-seen-entries';

const entry = (key: string, value: number, revision = value): KvEntry<number> => ({ key, value, revision, created: new Date(0) });

describe('LastSeenEntries', () => {
  it('keeps the latest entry of each key and forgets a key found absent', () => {
    const seen = new LastSeenEntries<number>(10);
    seen.remember('a', entry('a', 1));
    seen.remember('a', entry('a', 2));
    expect(seen.known('a')).toEqual(entry('a', 2));
    seen.remember('a', null);
    expect(seen.known('a')).toBeUndefined();
  });

  it('keeps the newer entry when a read that began earlier answers late', () => {
    const seen = new LastSeenEntries<number>(10);
    seen.settle('a', false, { entry: entry('a', 7), conflicts: 0 });
    seen.remember('a', entry('a', 6));
    expect(seen.known('a')).toEqual(entry('a', 7));
  });

  it('lets the least recently kept key go when full', () => {
    const seen = new LastSeenEntries<number>(2);
    seen.remember('a', entry('a', 1));
    seen.remember('b', entry('b', 1));
    seen.remember('a', entry('a', 2));
    seen.remember('c', entry('c', 1));
    expect([seen.known('a'), seen.known('b'), seen.known('c')]).toEqual([entry('a', 2), undefined, entry('c', 1)]);
  });

  it('keeps what a mutate left when its kept entry held, or when it had none', () => {
    const seen = new LastSeenEntries<number>(10);
    seen.settle('a', true, { entry: entry('a', 3), conflicts: 0 });
    seen.settle('b', false, { entry: entry('b', 5), conflicts: 2 });
    expect([seen.known('a'), seen.known('b')]).toEqual([entry('a', 3), entry('b', 5)]);
  });

  it('reads a key first for a while once its kept entry lost a race, then keeps entries again', () => {
    let now = 1_000;
    const seen = new LastSeenEntries<number>(10, () => now);
    seen.remember('a', entry('a', 1));
    seen.settle('a', true, { entry: entry('a', 7), conflicts: 1 });
    expect(seen.known('a')).toBeUndefined();
    seen.remember('a', entry('a', 8));
    expect(seen.known('a')).toBeUndefined();
    now += SHARED_KEY_MS + 1;
    expect(seen.known('a')).toBeUndefined();
    seen.remember('a', entry('a', 9));
    expect(seen.known('a')).toEqual(entry('a', 9));
  });

  it("runs one key's changes one after another, each on the entry the one before left", async () => {
    const seen = new LastSeenEntries<number>(10);
    const order: string[] = [];
    const bump = (label: string) => async (known: KvEntry<number> | undefined) => {
      order.push(`${label} saw ${known?.value ?? 'nothing'}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const value = (known?.value ?? 0) + 1;
      return { entry: entry('a', value), conflicts: 0, value };
    };
    const [first, second, other] = await Promise.all([seen.change('a', bump('first')), seen.change('a', bump('second')), seen.change('b', bump('other'))]);
    expect([first.value, second.value, other.value]).toEqual([1, 2, 1]);
    expect(order).toEqual(['first saw nothing', 'other saw nothing', 'second saw 1']);
  });

  it('forgets the kept entry of a change that failed, and lets the next one run', async () => {
    const seen = new LastSeenEntries<number>(10);
    seen.remember('a', entry('a', 4));
    const failed = seen.change('a', () => Promise.reject(new Error('timed out')));
    const next = seen.change('a', (known) => Promise.resolve({ entry: entry('a', 9), conflicts: 0, known }));
    await expect(failed).rejects.toThrow('timed out');
    expect((await next).known).toBeUndefined();
    expect(seen.known('a')).toEqual(entry('a', 9));
  });
});
