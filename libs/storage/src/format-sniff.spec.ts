import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import { FsStorage } from './fs-storage';
import { SNIFF_BYTES, readHead, sniffFormat, sniffStoredFormat } from './format-sniff';

/** A valid 1x1 grey PNG, chunk CRCs and all. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0x80]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const jpegHead = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'binary')]);

describe('sniffFormat', () => {
  it.each([
    ['png', png()],
    ['jpg', jpegHead],
    ['pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')],
    ['gz', gzipSync(Buffer.from('hello'))],
  ])('recognises %s from its bytes', async (format, bytes) => {
    expect(await sniffFormat(bytes)).toBe(format);
  });

  it.each([
    ['csv', 'name,size\nphoto.png,12\n'],
    ['json', '{"a": 1}'],
    ['markdown', '# Title\n\ntext'],
    ['svg', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'],
  ])('cannot tell a text format (%s)', async (_name, text) => {
    expect(await sniffFormat(Buffer.from(text))).toBe('');
  });

  it('does not choose among the formats one container holds (an OLE file is doc, xls or ppt)', async () => {
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    expect(await sniffFormat(ole)).toBe('');
  });

  it('answers nothing for no bytes', async () => {
    expect(await sniffFormat(Buffer.alloc(0))).toBe('');
  });
});

describe('sniffStoredFormat and readHead', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'format-sniff-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('recognises a stored file from its first bytes', async () => {
    const storage = new FsStorage({ root, signingKey: 'k'.repeat(32), publicUrl: 'http://127.0.0.1:8080' });
    await storage.put('imports/abc/source', Readable.from([png()]));
    expect(await sniffStoredFormat(storage, 'imports/abc/source')).toBe('png');
  });

  it('reads only the head of a long stream and stops it', async () => {
    let produced = 0;
    const stream = new Readable({
      read() {
        produced += 16 * 1024;
        this.push(Buffer.alloc(16 * 1024, 1));
      },
    });
    const head = await readHead(stream, SNIFF_BYTES);
    expect(head.length).toBe(SNIFF_BYTES);
    expect(stream.destroyed).toBe(true);
    expect(produced).toBeLessThan(SNIFF_BYTES * 4);
  });
});
