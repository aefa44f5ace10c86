import { job, task } from '../../test/live-job-builders';
import type { JobStore } from '../store/job-store';
import type { LiveJob, LiveTask } from '../store/live-job';
import type { ConvertSlots } from './convert-slots';
import { FairDispatch } from './fair-dispatch';
import type { WaitingLine } from './waiting-line';

/**
 * One account's line holding one entry (job, task c, attempt 1), in front of a store holding that job;
 * with `later`, the convert as every read after the first finds it (another replica moved it meanwhile).
 */
function dispatchWith(convert: Partial<LiveTask>, later?: Partial<LiveTask>) {
  const withConvert = (fields: Partial<LiveTask>): LiveJob => ({
    ...job('queued', [task('in', 'import/upload', 'finished'), { ...task('c', 'convert', 'queued', ['in']), attempt: 1, ...fields }]),
    convertAllowance: 1,
  });
  const stored = withConvert(convert);
  const reads = [stored, ...(later ? [withConvert(later)] : [])];
  let entries = [{ seq: 7, entry: { jobId: stored.id, task: 'c', attempt: 1 } }];
  const line = {
    head: () => Promise.resolve(entries[0] ?? null),
    remove: jest.fn((seq: number) => Promise.resolve(void (entries = entries.filter((entry) => entry.seq !== seq)))),
  };
  const held = new Set<string>();
  const slots = {
    acquire: (_account: string, holder: string) => {
      held.add(holder);
      return Promise.resolve(true);
    },
    release: (_account: string, holder: string) => Promise.resolve(held.delete(holder)),
  };
  const store = { get: () => Promise.resolve(reads.length > 1 ? reads.shift()! : reads[0]!) };
  const fairness = new FairDispatch(slots as unknown as ConvertSlots, line as unknown as WaitingLine, store as unknown as JobStore);
  return { fairness, line, stored, held };
}

describe('FairDispatch.nextToServe', () => {
  it('serves a parked convert at the head of its line', async () => {
    const { fairness, stored } = dispatchWith({ parkedAt: 1 });
    await expect(fairness.nextToServe('acc')).resolves.toEqual({ job: stored, task: 'c', seq: 7 });
  });

  it('leaves an entry whose task is still being parked, so that it is not stranded without a place in line', async () => {
    const { fairness, line } = dispatchWith({ parkedAt: null, publishedAt: null });
    await expect(fairness.nextToServe('acc')).resolves.toBeNull();
    expect(line.remove).not.toHaveBeenCalled();
  });

  it('drops an entry whose task was published meanwhile, or has moved to a newer attempt', async () => {
    const published = dispatchWith({ parkedAt: null, publishedAt: 5 });
    await expect(published.fairness.nextToServe('acc')).resolves.toBeNull();
    expect(published.line.remove).toHaveBeenCalledWith(7);
    const newer = dispatchWith({ parkedAt: 3, attempt: 2 });
    await expect(newer.fairness.nextToServe('acc')).resolves.toBeNull();
    expect(newer.line.remove).toHaveBeenCalledWith(7);
  });

  it('gives back the slot it took for a convert that another replica served and ended meanwhile', async () => {
    // Read parked; by the time its slot is taken the other replica has published it, it ran, ended and released its slot.
    const { fairness, line, held } = dispatchWith({ parkedAt: 1 }, { status: 'finished', parkedAt: null, publishedAt: 2 });
    await expect(fairness.nextToServe('acc')).resolves.toBeNull();
    expect(held).toEqual(new Set());
    expect(line.remove).toHaveBeenCalledWith(7);
  });

  it('keeps the slot of a convert another replica published meanwhile: it runs on it', async () => {
    const { fairness, stored, held } = dispatchWith({ parkedAt: 1 }, { parkedAt: null, publishedAt: 2 });
    await expect(fairness.nextToServe('acc')).resolves.toEqual({ job: stored, task: 'c', seq: 7 });
    expect(held).toEqual(new Set([`${stored.id}.c`]));
  });
});

describe('FairDispatch.reclaimStaleSlots', () => {
  /** Account `acc` whose one slot has been held for `heldForMs` by convert c of a job the store holds. */
  function sweepWith(convert: Partial<LiveTask>, heldForMs: number) {
    const stored: LiveJob = job('queued', [task('in', 'import/upload', 'finished'), { ...task('c', 'convert', 'queued', ['in']), attempt: 1, ...convert }]);
    const now = 1_000_000;
    const slots = {
      accountTokens: () => Promise.resolve([Buffer.from('acc').toString('hex')]),
      holders: () => Promise.resolve({ [`${stored.id}.c`]: now - heldForMs }),
      release: jest.fn(() => Promise.resolve(true)),
    };
    const store = { get: () => Promise.resolve(stored) };
    const fairness = new FairDispatch(slots as unknown as ConvertSlots, {} as WaitingLine, store as unknown as JobStore);
    return { sweep: () => fairness.reclaimStaleSlots(now), slots };
  }

  it('frees at once the slot of a convert that ended without its release (a NATS outage lost it)', async () => {
    const { sweep, slots } = sweepWith({ status: 'finished' }, 1_000);
    await expect(sweep()).resolves.toEqual(['acc']);
    expect(slots.release).toHaveBeenCalledWith('acc', `${'a'.repeat(32)}.c`);
  });

  it('leaves a recent slot of a parked convert, which a promotion may be publishing, until it is stale', async () => {
    const fresh = sweepWith({ parkedAt: 1 }, 1_000);
    await expect(fresh.sweep()).resolves.toEqual([]);
    expect(fresh.slots.release).not.toHaveBeenCalled();
    const stale = sweepWith({ parkedAt: 1 }, 120_000);
    await expect(stale.sweep()).resolves.toEqual(['acc']);
  });

  it('never frees the slot of a convert that runs', async () => {
    const { sweep, slots } = sweepWith({ publishedAt: 1 }, 120_000);
    await expect(sweep()).resolves.toEqual([]);
    expect(slots.release).not.toHaveBeenCalled();
  });
});
