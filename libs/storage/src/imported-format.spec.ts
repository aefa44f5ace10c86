import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { FsStorage } from './fs-storage';
import { importedFileFormat } from './imported-format';

const KEY = 'imports/abc/source';
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'binary'), Buffer.alloc(64)]);

describe('importedFileFormat', () => {
  let root: string;
  let storage: FsStorage;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'reported-format-'));
    storage = new FsStorage({ root, signingKey: 's'.repeat(32), publicUrl: 'http://127.0.0.1:1' });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const report = async (bytes: Buffer, filename: string, inputFormat = '') => {
    await storage.put(KEY, Readable.from([bytes]));
    return importedFileFormat({ inputFormat, filename, key: KEY }, storage);
  };

  it('recognises the content when the name has no extension', async () => {
    expect(await report(jpeg, 'download')).toBe('jpg');
    expect(await report(gzipSync('hello'), 'in')).toBe('gz');
  });

  it("keeps the name's format when it has one, even when the content disagrees", async () => {
    expect(await report(jpeg, 'photo.png')).toBe('png');
  });

  it("keeps the client's input_format over name and content", async () => {
    expect(await report(jpeg, 'photo.png', 'webp')).toBe('webp');
  });

  it('reports nothing for a nameless text file (the orchestrator then refuses the convert)', async () => {
    expect(await report(Buffer.from('a,b\n1,2\n'), 'in')).toBe('');
  });
});
