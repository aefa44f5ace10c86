import { infraFixture } from '@transmute/devstack';
import type { GatewayConfig } from '../src/config';
import { ImportsStore } from '../src/imports/imports.store';

/* The imports store on a real NATS (JetStream KV): ids, ownership, and the one-use token under races. */

const fixture = infraFixture();
let store: ImportsStore;

beforeAll(async () => {
  store = new ImportsStore(fixture.nc, { fileRetentionSeconds: 3_600 } as GatewayConfig);
}, 60_000);

describe('ImportsStore', () => {
  it('creates an import of the account, found by id; an unknown id is null', async () => {
    const { record, token } = await store.create('acc-1');
    expect(record.id).toMatch(/^[0-9a-f]{32}$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const found = await store.find(record.id);
    expect(found).toMatchObject({ id: record.id, accountId: 'acc-1', key: `imports/${record.id}/source`, tokenUsed: false });
    // Only the token's hash is kept.
    expect(JSON.stringify(found, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).not.toContain(token);
    expect(await store.find('0'.repeat(32))).toBeNull();
  });

  it('accepts the token once, then says used; any other value is wrong', async () => {
    const { record, token } = await store.create('acc-1');
    expect(await store.spendToken(record.id, `${token}x`)).toBe('wrong');
    expect(await store.spendToken(record.id, token)).toBe('accepted');
    expect(await store.spendToken(record.id, token)).toBe('used');
    expect(await store.spendToken('0'.repeat(32), token)).toBe('wrong');
  });

  it('lets exactly one of many racing requests spend a token', async () => {
    const { record, token } = await store.create('acc-2');
    const answers = await Promise.all(Array.from({ length: 12 }, () => store.spendToken(record.id, token)));
    expect(answers.filter((answer) => answer === 'accepted')).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'used')).toHaveLength(11);
  });

  it('remembers the file name the bytes came with', async () => {
    const { record } = await store.create('acc-3');
    await store.setFilename(record.id, 'scan.PNG');
    expect((await store.find(record.id))?.filename).toBe('scan.PNG');
  });
});
