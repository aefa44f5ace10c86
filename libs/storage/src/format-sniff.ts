import type { Readable } from 'node:stream';
import type { Storage } from './storage';

/**
 * Leading bytes read to recognise a file: past every signature file-type knows
 * (it asks for 4100) and the first entries of a ZIP, which tell docx, xlsx,
 * epub or 3mf from a plain zip.
 */
export const SNIFF_BYTES = 64 * 1024;

/**
 * What file-type answers for a container of several catalogue formats; the
 * content alone cannot choose (cfb: doc, xls or ppt; xml: svg, dbk, opml ...).
 */
const AMBIGUOUS = new Set(['cfb', 'xml']);

// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the lint program resolves this ESM-only type import as an error type; tsc (module node16) resolves it
type FileTypeModule = typeof import('file-type', { with: { 'resolution-mode': 'import' } });
let fileType: Promise<FileTypeModule> | undefined;

/**
 * file-type is ESM only. Under `module: node16` tsc leaves `import()` as it is
 * in this CommonJS build, so Node loads the ES module natively (jest maps it:
 * see jest.config.js).
 */
function loadFileType(): Promise<FileTypeModule> {
  fileType ??= import('file-type');
  return fileType;
}

/**
 * The format (a catalogue name such as `png`, `mp4`, `docx`) the bytes are
 * in, or '' when the content does not tell: text formats (csv, txt, md, json,
 * svg ...) have no signature, and some containers hold several formats.
 */
export async function sniffFormat(head: Uint8Array): Promise<string> {
  if (head.length === 0) return '';
  const { fileTypeFromBuffer } = await loadFileType();
  const detected = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES));
  if (!detected || AMBIGUOUS.has(detected.ext)) return '';
  // file-type's extensions are the catalogue's names (jpg, tif, mp4, docx, woff2 ...).
  return detected.ext;
}

/** The format of a stored file from its first bytes; '' when the content does not tell. */
export async function sniffStoredFormat(storage: Storage, key: string): Promise<string> {
  return sniffFormat(await readHead(await storage.get(key), SNIFF_BYTES));
}

/** Up to `limit` leading bytes of a stream, which is then destroyed (the rest is never read). */
export async function readHead(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, length).subarray(0, limit);
}
