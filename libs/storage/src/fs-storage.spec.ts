import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { FsStorage } from './fs-storage';
import { storageKey } from './storage';

describe('FsStorage', () => {
  let root: string;
  let storage: FsStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'fs-storage-'));
    storage = new FsStorage({ root, signingKey: 'k'.repeat(32), publicUrl: 'http://127.0.0.1:8080' });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('streams an object in and out', async () => {
    const key = storageKey('jobs', 'abc', 'in.png');
    expect(await storage.stat(key)).toBeNull();
    const stored = await storage.put(key, Readable.from(['hello ', 'world']));
    expect(stored.size).toBe(11);
    expect(await storage.stat(key)).toEqual({ size: 11 });
    expect(await text(await storage.get(key))).toBe('hello world');
  });

  it('moves a finished local file into place and copies an object out to one', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'fs-scratch-'));
    try {
      await writeFile(join(scratch, 'output.webp'), 'result bytes');
      expect(await storage.putFile('jobs/j/convert/out.webp', join(scratch, 'output.webp'))).toEqual({ size: 12 });
      expect(await readdir(scratch)).toEqual([]);
      expect(await text(await storage.get('jobs/j/convert/out.webp'))).toBe('result bytes');

      await storage.getFile('jobs/j/convert/out.webp', join(scratch, 'input.webp'));
      await writeFile(join(scratch, 'input.webp'), 'an engine writing over its input');
      expect(await text(await storage.get('jobs/j/convert/out.webp'))).toBe('result bytes');
      expect(await readFile(join(scratch, 'input.webp'), 'utf8')).toBe('an engine writing over its input');
      await expect(storage.getFile('jobs/none', join(scratch, 'none'))).rejects.toMatchObject({ name: 'ServiceFailure', code: 5 });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('sweeps files last written before the cutoff, leftovers of interrupted writes too, and the folders they leave empty', async () => {
    const old = new Date(Date.now() - 25 * 3_600_000);
    for (const key of ['jobs/old/out.jpg', 'uploads/old/in', 'jobs/mixed/old.png']) {
      await storage.put(key, Readable.from(['old']));
      await utimes(join(root, key), old, old);
    }
    await writeFile(join(root, 'jobs/mixed/new.png.partial-abc123'), 'half');
    await utimes(join(root, 'jobs/mixed/new.png.partial-abc123'), old, old);
    await storage.put('jobs/mixed/new.png', Readable.from(['new']));

    expect(await storage.deleteOlderThan(new Date(Date.now() - 24 * 3_600_000))).toBe(4);
    expect(await storage.stat('jobs/mixed/new.png')).toEqual({ size: 3 });
    expect(await storage.stat('jobs/old/out.jpg')).toBeNull();
    expect((await readdir(root)).sort()).toEqual(['jobs']);
    expect(await readdir(join(root, 'jobs'))).toEqual(['mixed']);
    expect(await storage.deleteOlderThan(new Date(Date.now() - 24 * 3_600_000))).toBe(0);
  });

  it('refuses keys that leave the root', async () => {
    await expect(storage.put('../escape', Readable.from(['x']))).rejects.toThrow('unsafe storage key');
    expect(storageKey('jobs', '..', 'a b.png')).toBe('jobs/_/a_b.png');
  });

  it('answers NOT_FOUND for a missing object', async () => {
    await expect(storage.get('jobs/none')).rejects.toMatchObject({ name: 'ServiceFailure', code: 5 });
  });

  it('signs upload links over method, path, expiry and Content-Type', async () => {
    const target = await storage.presignUpload('jobs/a/in', { contentType: 'application/octet-stream', expiresInSeconds: 60 });
    const url = new URL(target.url);
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    const request = { method: 'PUT', path: url.pathname, expires, contentType: 'application/octet-stream', filename: '' };
    expect(target.headers['Content-Type']).toBe('application/octet-stream');
    expect(storage.signer.verify(request, signature)).toBe('valid');
    expect(storage.signer.verify({ ...request, contentType: 'image/png' }, signature)).toBe('invalid');
    expect(storage.signer.verify({ ...request, method: 'GET' }, signature)).toBe('invalid');
    expect(storage.signer.verify(request, signature, expires + 1)).toBe('expired');
  });

  it('names the account an upload is held to in the link, signed: moving the charge to another account breaks it', async () => {
    const target = await storage.presignUpload('jobs/a/in', { contentType: 'application/octet-stream', expiresInSeconds: 60, ceiling: { accountId: 'acme', maxBytes: 1_000 } });
    const url = new URL(target.url);
    expect(url.searchParams.get('account')).toBe('acme');
    const request = { method: 'PUT', path: url.pathname, expires: Number(url.searchParams.get('expires')), contentType: 'application/octet-stream', filename: '', account: 'acme' };
    const signature = url.searchParams.get('signature') ?? '';
    expect(storage.signer.verify(request, signature)).toBe('valid');
    expect(storage.signer.verify({ ...request, account: 'other' }, signature)).toBe('invalid');
    expect(storage.signer.verify({ ...request, account: '' }, signature)).toBe('invalid');
    expect(target).toMatchObject({ method: 'PUT', parameters: {} });
  });
});
