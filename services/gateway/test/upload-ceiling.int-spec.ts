import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FsStorage, STORAGE, storageKey } from '@transmute/storage';
import { AccountQuota } from '../src/accounts/account-quota';
import { AccountsService } from '../src/accounts/accounts.service';
import { KeysService } from '../src/keys';
import { type GatewayForTest, startGatewayForTest } from './gateway-for-test';

/*
 * "Direct upload size: no fixed limit; ceiling is remaining quota." The whole
 * gateway in-process (real NATS and FerretDB) with the fs driver: an upload
 * link made for an account is held, when the bytes arrive, to what that
 * account's quota has left then; the client gets 413 in the Error shape and
 * nothing is stored.
 */
const ALLOWANCE = 20_000;
const PLANS = { tiny: { monthlyGb: ALLOWANCE / 1e9, additionalGb: 0, dailyConversions: 100, convertAllowance: 2, rateLimitPerMinute: 10_000 } };

interface Answer {
  status: number;
  body: string;
}

/** A PUT whose body is sent in chunks without Content-Length: the route must count, not trust a header. */
function putChunked(url: string, headers: Record<string, string>, bytes: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'PUT', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    // The server may answer and close before the last chunk: that is the point.
    outgoing.on('error', (error) => (error.message.includes('EPIPE') || error.message.includes('ECONNRESET') ? undefined : reject(error)));
    Readable.from(Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096))).pipe(outgoing);
  });
}

describe('the upload ceiling is the remaining quota, checked when the bytes arrive', () => {
  let gateway: GatewayForTest;
  let baseUrl: string;
  let storageRoot: string;
  let storage: FsStorage;
  let accounts: AccountsService;
  let quota: AccountQuota;
  let keys: KeysService;

  beforeAll(async () => {
    gateway = await startGatewayForTest({ database: 'gateway_ceiling_it', env: { TRANSMUTE_PLANS: JSON.stringify(PLANS) } });
    ({ baseUrl, storageRoot } = gateway);
    storage = gateway.app.get<FsStorage>(STORAGE);
    accounts = gateway.app.get(AccountsService);
    quota = gateway.app.get(AccountQuota);
    keys = gateway.app.get(KeysService);
  });

  afterAll(() => gateway?.stop());

  async function tinyAccount(): Promise<{ accountId: string; key: string }> {
    const accountId = `ceiling-${randomBytes(4).toString('hex')}`;
    await accounts.createAccount({ id: accountId, plan: 'tiny' });
    return { accountId, key: (await keys.createKey(accountId)).key };
  }

  const linkFor = (accountId: string, key: string) =>
    storage.presignUpload(key, { contentType: 'application/octet-stream', expiresInSeconds: 60, ceiling: { accountId, maxBytes: ALLOWANCE } });

  /** Every file under the upload's folder, half-written leftovers included. */
  const filesUnder = async (key: string) => readdir(join(storageRoot, key, '..')).catch(() => [] as string[]);

  it('takes a file of exactly what is left', async () => {
    const { accountId } = await tinyAccount();
    const key = storageKey('uploads', randomBytes(8).toString('hex'), 'in');
    const target = await linkFor(accountId, key);
    const reply = await fetch(target.url, { method: 'PUT', headers: target.headers, body: randomBytes(ALLOWANCE) });
    expect(reply.status).toBe(200);
    expect(await storage.stat(key)).toEqual({ size: ALLOWANCE });
  });

  it('refuses one byte more on its Content-Length: 413 in the Error shape, nothing stored', async () => {
    const { accountId } = await tinyAccount();
    const key = storageKey('uploads', randomBytes(8).toString('hex'), 'in');
    const target = await linkFor(accountId, key);
    const reply = await fetch(target.url, { method: 'PUT', headers: target.headers, body: randomBytes(ALLOWANCE + 1) });
    expect(reply.status).toBe(413);
    expect(await reply.json()).toEqual({ status: 'error', message: expect.stringContaining("what is left of this account's quota, 20 kB (20000 bytes)") });
    expect(await storage.stat(key)).toBeNull();
    expect(await filesUnder(key)).toEqual([]);
  });

  it('counts a chunked body that announces no length, and keeps no part of it', async () => {
    const { accountId } = await tinyAccount();
    const key = storageKey('uploads', randomBytes(8).toString('hex'), 'in');
    const target = await linkFor(accountId, key);
    const reply = await putChunked(target.url, target.headers, randomBytes(3 * ALLOWANCE));
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'error', message: expect.stringContaining('20 kB (20000 bytes)') });
    expect(await storage.stat(key)).toBeNull();
    expect(await filesUnder(key)).toEqual([]);
  });

  it('holds a link made earlier to what is left when the bytes arrive, not when the link was made', async () => {
    const { accountId } = await tinyAccount();
    const key = storageKey('uploads', randomBytes(8).toString('hex'), 'in');
    const target = await linkFor(accountId, key);
    // Another job of the account spends 15 kB after the link was handed out.
    await quota.charge(accountId, 15_000, 0, 'elsewhere');
    const reply = await fetch(target.url, { method: 'PUT', headers: target.headers, body: randomBytes(10_000) });
    expect(reply.status).toBe(413);
    expect(await reply.json()).toMatchObject({ message: expect.stringContaining('5 kB (5000 bytes)') });
    expect(await storage.stat(key)).toBeNull();
  });

  it('refuses a link whose account was changed (the charge cannot be moved)', async () => {
    const { accountId } = await tinyAccount();
    const target = new URL((await linkFor(accountId, storageKey('uploads', randomBytes(8).toString('hex'), 'in'))).url);
    target.searchParams.set('account', 'dev');
    expect((await fetch(target, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: 'x' })).status).toBe(403);
  });

  it("holds an import's direct link and its proxy route to the remaining quota too", async () => {
    const { key } = await tinyAccount();
    const created = await fetch(`${baseUrl}/v1/imports`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });
    expect(created.status).toBe(200);
    const { upload } = (await created.json()) as {
      upload: { url: string; method: string; headers: Record<string, string>; parameters: Record<string, string>; proxy_url: string; token: string };
    };
    expect(upload).toMatchObject({ method: 'PUT', parameters: {} });
    expect(new URL(upload.url).searchParams.get('account')).toMatch(/^ceiling-/);

    const direct = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: randomBytes(ALLOWANCE + 1) });
    expect(direct.status).toBe(413);
    const proxied = await fetch(`${upload.proxy_url}?token=${upload.token}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: randomBytes(ALLOWANCE + 1),
    });
    expect(proxied.status).toBe(413);
    expect(await proxied.json()).toMatchObject({ status: 'error', message: expect.stringContaining('20 kB (20000 bytes)') });
  });
});
