import { open, readFile } from 'node:fs/promises';

/**
 * Output checks every family proof shares: cheap, and strict enough that an
 * engine writing the wrong format (or an empty shell) fails the matrix.
 */

/** The first `bytes` bytes of a file (fewer if it is shorter), where magic numbers live. */
export async function head(path: string, bytes = 4096): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function expectBytes(buffer: Buffer, magic: number[] | string, at = 0, what = 'file'): void {
  const expected = typeof magic === 'string' ? Buffer.from(magic, 'latin1') : Buffer.from(magic);
  if (!buffer.subarray(at, at + expected.length).equals(expected)) {
    throw new Error(
      `not a ${what}: expected ${JSON.stringify(expected.toString('latin1'))} at byte ${at}, found ${JSON.stringify(buffer.subarray(at, at + expected.length).toString('latin1'))}`,
    );
  }
}

export const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
export const ZIP = 'PK\x03\x04';

/** An OpenDocument (or EPUB) package: a zip whose first, stored entry is `mimetype`. */
export async function expectZipMimetype(path: string, mimetype: string): Promise<void> {
  const buffer = await head(path, 200);
  expectBytes(buffer, ZIP, 0, 'zip package');
  if (!buffer.includes(Buffer.from(`mimetype${mimetype}`, 'latin1'))) throw new Error(`zip package without the mimetype ${mimetype}`);
}

/** An Office Open XML package: a zip holding `[Content_Types].xml` and the part folder of its kind. */
export async function expectOoxml(path: string, partFolder: string): Promise<void> {
  const whole = await readFile(path);
  expectBytes(whole, ZIP, 0, 'zip package');
  for (const name of ['[Content_Types].xml', partFolder]) {
    if (!whole.includes(Buffer.from(name, 'latin1'))) throw new Error(`Office Open XML package without ${name}`);
  }
}

/** A text file that is valid UTF-8 and contains every `needle`. */
export async function expectText(path: string, needles: (string | RegExp)[], what: string): Promise<string> {
  const bytes = await readFile(path);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  for (const needle of needles) {
    const found = typeof needle === 'string' ? text.includes(needle) : needle.test(text);
    if (!found) throw new Error(`not a ${what}: ${String(needle)} is missing`);
  }
  return text;
}
