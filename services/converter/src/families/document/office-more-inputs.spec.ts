import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { runEngine } from '../../engine/run-engine';
import { DocumentFamily } from './document.family';
import { CELLS, PAGES, pageHeading } from './document-sample-content';
import { documentProof } from './document.proof';

/** Words of each page's heading in order: every sample of a text or a presentation holds the three pages (document-sample-content.ts). */
const HEADINGS = PAGES.map(pageHeading).join(' ').split(' ');
/** The inputs this spec proves, and words of their sample that every output must still hold, in order. */
const WORDS: Record<string, string[]> = {
  dotm: HEADINGS,
  uot: HEADINGS,
  odm: HEADINGS,
  otm: HEADINGS,
  '602': HEADINGS,
  xltm: CELLS.map((row) => row[0]!),
  pps: HEADINGS,
  potm: HEADINGS,
  // A metafile holds the first page of the drawing it was made from.
  emz: PAGES[0]!.slice(0, 2),
  wmz: PAGES[0]!.slice(0, 2),
};

/**
 * The LibreOffice inputs added for issue 24 (macro-enabled templates, PowerPoint
 * shows, UOF text, master documents, T602, gzipped metafiles): every pair,
 * converted by the warm pool and read back by another reader. poppler's
 * pdftotext for PDF; the XML parts (read out of the zip by bsdtar) for ODF and
 * OOXML; the text itself for flat XML, HTML, RTF, CSV, DIF, SYLK and SVG: the
 * sample's words, in order. Binary Office files and metafiles are searched
 * for the words in their 8-bit and UTF-16 text; PNG and JPEG, which hold no
 * text, must be a picture that is not blank.
 */
describe('document family: more LibreOffice inputs', () => {
  const family = new DocumentFamily({ size: 1, maxConversions: 200, timeoutMs: 120_000, python: '/usr/bin/python3', soffice: 'soffice' });
  const proof = documentProof();
  const signal = () => AbortSignal.timeout(120_000);
  const pairs = family.pairs().filter((pair) => pair.inputFormat in WORDS);
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'office-more-'));
  });
  afterAll(async () => {
    await family.stop();
    await Promise.all([rm(dir, { recursive: true, force: true }), proof.dispose?.()]);
  });

  it('lists each input towards the outputs of its kind, less what LibreOffice cannot write', () => {
    const outputs = (input: string) => pairs.filter((pair) => pair.inputFormat === input).map((pair) => pair.outputFormat);
    expect(outputs('uot')).not.toContain('pdf');
    expect(outputs('uot')).not.toContain('png');
    expect(outputs('odm')).not.toContain('ott');
    expect(outputs('pps')).toEqual(expect.arrayContaining(['pdf', 'pptx', 'odp']));
    expect(new Set(pairs.map((pair) => pair.inputFormat))).toEqual(new Set(Object.keys(WORDS)));
  });

  it.each(pairs.map((pair) => [pair.inputFormat, pair.outputFormat]))(
    '%s → %s keeps the sample text',
    async (inputFormat, outputFormat) => {
      const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
      const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
      const outputPath = join(pairDir, `out.${outputFormat}`);
      await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
      const words = WORDS[inputFormat]!;
      if (outputFormat === 'png' || outputFormat === 'jpg') {
        const { width, height } = await sharp(outputPath).metadata();
        const { channels } = await sharp(outputPath).stats();
        expect(width * height).toBeGreaterThan(10_000);
        expect(Math.max(...channels.map((channel) => channel.stdev))).toBeGreaterThan(1);
        return;
      }
      const bytes = await readFile(outputPath);
      if (METAFILES.has(inputFormat) && EMBEDDING.has(outputFormat)) {
        // A drawing keeps the metafile whole, as its picture: the words are in there.
        const picture = await embeddedPicture(outputFormat, outputPath, bytes, signal());
        const text = picture.toString('latin1') + picture.toString('utf16le') + picture.subarray(1).toString('utf16le');
        for (const word of words) expect(text).toContain(word);
        return;
      }
      if (BINARY_OUTPUTS.has(outputFormat)) {
        const text = bytes.toString('latin1') + bytes.toString('utf16le') + bytes.subarray(1).toString('utf16le');
        for (const word of words) expect(text).toContain(word);
        return;
      }
      const text = await readText(outputFormat, outputPath, bytes, signal());
      expect(inOrder(text, words)).toEqual(words);
    },
    180_000,
  );
});

/** Binary formats with no reader here other than LibreOffice: OLE2 compound files and metafiles. */
const BINARY_OUTPUTS = new Set(['doc', 'dot', 'xls', 'xlt', 'ppt', 'pot', 'emf', 'wmf']);
/** Zip packages whose text lives in XML parts. */
const ZIPPED = new Set(['docx', 'docm', 'dotx', 'xlsx', 'xlsm', 'xltx', 'pptx', 'pptm', 'potx', 'ppsx', 'odt', 'ott', 'ods', 'ots', 'odp', 'otp', 'odg', 'otg']);

const METAFILES = new Set(['emz', 'wmz']);
/** Drawings that embed an opened metafile as a picture rather than as shapes. */
const EMBEDDING = new Set(['odg', 'otg', 'fodg']);

/** The pictures a drawing embeds (parts under Pictures/ in the zip, base64 binary data in flat XML), gunzipped where gzipped. */
async function embeddedPicture(format: string, path: string, bytes: Buffer, signal: AbortSignal): Promise<Buffer> {
  let pictures: Buffer[];
  if (format === 'fodg') {
    pictures = [...bytes.toString('latin1').matchAll(/<office:binary-data>([^<]+)<\/office:binary-data>/g)].map((match) => Buffer.from(match[1]!, 'base64'));
  } else {
    const parts = `${path}.parts`;
    await mkdir(parts);
    await runEngine({ command: 'bsdtar', args: ['-xf', path, '-C', parts, 'Pictures'], timeoutMs: 60_000, signal });
    const names = await readdir(join(parts, 'Pictures'));
    pictures = await Promise.all(names.map((name) => readFile(join(parts, 'Pictures', name))));
  }
  return Buffer.concat(pictures.map((picture) => (picture[0] === 0x1f && picture[1] === 0x8b ? gunzipSync(picture) : picture)));
}

async function readText(format: string, path: string, bytes: Buffer, signal: AbortSignal): Promise<string> {
  if (format === 'pdf') return (await runEngine({ command: 'pdftotext', args: [path, '-'], timeoutMs: 60_000, signal })).stdout;
  if (ZIPPED.has(format)) {
    // Word's, PowerPoint's and ODF's text is in their XML parts; Excel's shared strings too.
    const { stdout } = await runEngine({ command: 'bsdtar', args: ['-xOf', path, '*.xml'], timeoutMs: 60_000, signal });
    return stdout.replace(/<[^>]+>/g, ' ');
  }
  return bytes.toString('utf8').replace(/<[^>]+>/g, ' ');
}

/** The words found in the text, in order: each searched for after the one before. */
function inOrder(text: string, words: string[]): string[] {
  const found: string[] = [];
  let from = 0;
  for (const word of words) {
    const at = text.indexOf(word, from);
    if (at < 0) break;
    found.push(word);
    from = at + word.length;
  }
  return found;
}
