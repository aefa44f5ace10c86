import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';

const run = promisify(execFile);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression ("pixel") bomb: a valid PNG of side x side 1-bit grey pixels,
 * all zero, that compresses to about 0.1% of its decoded size (30000: 900
 * million pixels in ~110 KB, past the default 268 million pixel limit).
 */
export function pixelBombPng(side = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  // Every row: filter byte 0, then side/8 bytes of zeros.
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The classic entity-expansion SVG: ten levels of ten references, 10^9 "lol"s if a parser expanded them. */
export function billionLaughsSvg(): Buffer {
  const entities = ['<!ENTITY lol "lol">'];
  for (let level = 1; level <= 9; level++) entities.push(`<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`);
  return Buffer.from(
    `<?xml version="1.0"?>\n<!DOCTYPE svg [\n${entities.join('\n')}\n]>\n<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><text x="0" y="20">&lol9;</text></svg>\n`,
  );
}

/** A zip of four 384 MiB files of zeros (1.5 GiB expanded) in about 1.5 MB: Python's zipfile, written at test time. */
export async function zipBomb(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'zip-bomb-'));
  try {
    const path = join(dir, 'bomb.zip');
    const script = [
      'import sys, zipfile',
      'block = bytes(1024 * 1024)',
      'with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:',
      '    for n in range(4):',
      '        with z.open(f"zeros{n}.bin", "w", force_zip64=True) as entry:',
      '            for _ in range(384):',
      '                entry.write(block)',
    ].join('\n');
    await run('python3', ['-c', script, path], { timeout: 120_000 });
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
