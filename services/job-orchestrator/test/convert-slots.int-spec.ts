import { infraFixture } from '@transmute/devstack';
import { ReadinessRegistry } from '@transmute/service-kit';
import { ConvertSlots } from '../src/fairness/convert-slots';

/** Convert slots shared by orchestrator replicas, each keeping the record it last saw, on a real nats-server. */
const fixture = infraFixture();
let account = 0;

const replica = () => new ConvertSlots(fixture.nc, { fileRetentionSeconds: 3_600, natsReplicas: 1 }, new ReadinessRegistry());

describe('ConvertSlots across replicas', () => {
  it('never lets two replicas take more slots than the cap, however they interleave', async () => {
    const accountId = `acct-${++account}`;
    const [first, second] = [replica(), replica()];
    const taken = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 ? first : second).acquire(accountId, `task-${index}`, 3)));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(Object.keys(await first.holders(accountId))).toHaveLength(3);
  });

  it('frees a slot that another replica took after this one last looked', async () => {
    const accountId = `acct-${++account}`;
    const [first, second] = [replica(), replica()];
    expect(await first.acquire(accountId, 'task-a', 2)).toBe(true);
    expect(await second.release(accountId, 'task-a')).toBe(true);
    expect(await second.acquire(accountId, 'task-b', 2)).toBe(true);
    // The first replica's kept record shows task-a and not task-b: only a fresh read can free task-b.
    expect(await first.release(accountId, 'task-b')).toBe(true);
    expect(await second.holders(accountId)).toEqual({});
  });

  it('takes a slot that another replica freed after this one last saw the account full', async () => {
    const accountId = `acct-${++account}`;
    const [first, second] = [replica(), replica()];
    expect(await first.acquire(accountId, 'task-a', 1)).toBe(true);
    expect(await first.acquire(accountId, 'task-b', 1)).toBe(false);
    expect(await second.release(accountId, 'task-a')).toBe(true);
    expect(await first.acquire(accountId, 'task-b', 1)).toBe(true);
  });
});
