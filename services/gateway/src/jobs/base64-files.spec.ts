import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { create } from '@bufbuild/protobuf';
import { CreateJobRequestSchema, TaskSpecSchema } from '@transmute/contracts';
import { FsStorage } from '@transmute/storage';
import { decodeBase64File, storeBase64Files } from './base64-files';

describe('decodeBase64File', () => {
  it.each([
    ['plain base64', 'aGVsbG8=', 'hello'],
    ['a data: URI', 'data:image/png;base64,aGVsbG8=', 'hello'],
    ['line-wrapped', 'aGVs\nbG8=', 'hello'],
    ['unpadded base64url', 'aGVsbG8', 'hello'],
    ['base64 with non-zero trailing bits', 'aGVsbG9=', 'hello'],
    ['base64url of bytes that need its alphabet', '-_8', '\u00fb\u00ff'],
  ])('decodes %s', (_name, input, expected) => {
    expect(decodeBase64File(input).toString('latin1')).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['not base64', 'hello world!'],
    ['a character outside both alphabets', 'aGVs!bG8='],
    ['both alphabets mixed', 'aG+s-bG8'],
    ['a bare data: prefix', 'data:image/png;base64,'],
  ])('rejects %s', (_name, input) => {
    expect(() => decodeBase64File(input)).toThrow();
  });
});

describe('storeBase64Files', () => {
  let root: string;
  let storage: FsStorage;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'base64-'));
    storage = new FsStorage({ root, signingKey: 'k'.repeat(32), publicUrl: 'http://127.0.0.1:8080' });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const requestWith = (file: string) => create(CreateJobRequestSchema, { tasks: { in: create(TaskSpecSchema, { operation: 'import/base64', file, filename: 'a.txt' }) } });

  it('stores the decoded bytes and keeps only their key on the task', async () => {
    const request = requestWith('data:text/plain;base64,aGVsbG8=');
    await storeBase64Files(request, storage, 100, { store: true });
    const spec = request.tasks['in']!;
    expect(spec.file).toBe('');
    expect(await text(await storage.get(spec.storedKey))).toBe('hello');
  });

  it.each([
    ['invalid base64 (422)', 'not base64!', 8],
    ['a file past the ceiling (413)', Buffer.alloc(101).toString('base64'), 7],
  ])('refuses %s', async (_name, file, code) => {
    await expect(storeBase64Files(requestWith(file), storage, 100, { store: true })).rejects.toMatchObject({ code });
  });
});
