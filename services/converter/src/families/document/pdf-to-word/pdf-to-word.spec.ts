import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../../engine/run-engine';
import { DocumentFamily } from '../document.family';

/**
 * PDF → DOCX, ODT and RTF with the real engines (pdf2docx, then the warm
 * LibreOffice), each result read back by a reader that took no part in
 * writing it: pandoc for DOCX and RTF, odt2txt for ODT (pandoc 2.17 drops
 * the text:section that holds every page after the first), unzip for the
 * pictures. The source's words come from pdftotext. A missing engine fails.
 */
describe('PDF to Word', () => {
  const family = new DocumentFamily({ size: 1, maxConversions: 50, timeoutMs: 120_000, python: '/usr/bin/python3', soffice: 'soffice' });
  const signal = () => AbortSignal.timeout(120_000);
  const run = async (command: string, args: string[]) => (await runEngine({ command, args, timeoutMs: 120_000, signal: signal(), memoryLimitMb: 0 })).stdout;
  let dir: string;
  let pdf: string;
  let sourceWords: string[];
  let counter = 0;

  const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
  /** Paragraph n starts with a word no other paragraph has (lead0, lead1 ...), so its start can be found in the output. */
  const paragraph = (n: number) => [`lead${n}`, ...Array.from({ length: 69 }, (_, i) => WORDS[(n * 7 + i * 3) % WORDS.length])].join(' ') + '.';
  const PARAGRAPHS = 16;

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}) => {
    const outputPath = join(dir, `out-${++counter}.${outputFormat}`);
    await family.convert({ inputPath: pdf, outputPath, inputFormat: 'pdf', outputFormat, options, signal: signal(), reportProgress: () => undefined });
    return outputPath;
  };
  const readBack: Record<string, (path: string) => Promise<string>> = {
    docx: (path) => run('pandoc', ['-t', 'plain', '--wrap=none', path]),
    rtf: (path) => run('pandoc', ['-f', 'rtf', '-t', 'plain', '--wrap=none', path]),
    odt: (path) => run('odt2txt', ['--width=-1', path]),
  };
  /** Entries of a zip package (DOCX, ODT) under `folder`, extracted by unzip. */
  const zipPictures = async (path: string, folder: string) => {
    const out = await mkdtemp(join(dir, 'unzip-'));
    await run('unzip', ['-q', path, `${folder}*`, '-d', out]);
    return (await readdir(join(out, folder))).map((name) => join(out, folder, name));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdf-to-word-'));
    const photo = join(dir, 'photo.png');
    await run('convert-im6.q16', ['-size', '300x200', 'gradient:navy-gold', `png:${photo}`]);
    const body: string[] = ['# Field report', ''];
    for (let n = 0; n < PARAGRAPHS; n++) {
      body.push(paragraph(n), '');
      if (n === 3) body.push('| Item | Count | Region |', '|---|---|---|', '| apples | 12 | north |', '| pears | 7 | south |', '');
      if (n === 7) body.push('![Figure](photo.png)', '');
    }
    const markdown = join(dir, 'report.md');
    await writeFile(markdown, body.join('\n'));
    const odt = join(dir, 'report.odt');
    await run('pandoc', ['--resource-path', dir, '-o', odt, markdown]);
    pdf = join(dir, 'report.pdf');
    await family.convert({ inputPath: odt, outputPath: pdf, inputFormat: 'odt', outputFormat: 'pdf', options: {}, signal: signal(), reportProgress: () => undefined });
    sourceWords = (await run('pdftotext', ['-enc', 'UTF-8', pdf, '-'])).split(/\s+/).filter(Boolean);
    expect(Number(/Pages:\s+(\d+)/.exec(await run('pdfinfo', [pdf]))?.[1])).toBeGreaterThanOrEqual(3);
  }, 240_000);
  afterAll(async () => {
    await family.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['docx', 'odt', 'rtf'])('pdf → %s keeps the words in order, the paragraphs, the table and the picture', async (format) => {
    const output = await convert(format);
    const text = await readBack[format]!(output);
    const words = text.split(/\s+/).filter(Boolean);
    // Words in order: the longest common subsequence with the source covers nearly all of it.
    expect(commonSubsequence(sourceWords, words) / sourceWords.length).toBeGreaterThan(0.97);
    // Paragraphs: each source paragraph still starts a paragraph of its own.
    const paragraphStarts = text.split(/\n\s*\n/).map((block) => block.trim().split(/\s+/)[0]);
    for (let n = 0; n < PARAGRAPHS; n++) expect(paragraphStarts).toContain(`lead${n}`);
    // A table cell row, whichever way the reader draws the grid.
    expect(text).toMatch(/apples[\s|]+12[\s|]+north/);
    if (format === 'rtf') {
      const rtf = await readFile(output, 'latin1');
      expect(rtf).toContain('\\trowd');
      expect(rtf).toMatch(/\\pict[\s\S]*\\pngblip|\\pict[\s\S]*\\jpegblip/);
      return;
    }
    const [xml, tableTag, pictures] = format === 'docx' ? ['word/document.xml', '<w:tbl>', 'word/media/'] : ['content.xml', '<table:table ', 'Pictures/'];
    expect(await run('unzip', ['-p', output, xml])).toContain(tableTag);
    const [picture] = await zipPictures(output, pictures);
    expect((await run('identify-im6.q16', ['-format', '%wx%h', picture!])).trim()).toBe('300x200');
  });

  it('page_from/page_to rebuild only those pages', async () => {
    const pages = await Promise.all([1, 2].map((page) => run('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-'])));
    const firstOf = (page: string) => page.split(/\s+/).find((word) => word.startsWith('lead'))!;
    const text = await readBack['docx']!(await convert('docx', { page_from: 2, page_to: 2 }));
    expect(text).toContain(firstOf(pages[1]!));
    expect(text).not.toContain(firstOf(pages[0]!));
  });

  it('refuses a damaged PDF with the engine’s reason', async () => {
    const damaged = join(dir, 'damaged.pdf');
    await writeFile(damaged, '%PDF-1.7\nthis is not a PDF body\n');
    const outputPath = join(dir, 'damaged.docx');
    await expect(
      family.convert({ inputPath: damaged, outputPath, inputFormat: 'pdf', outputFormat: 'docx', options: {}, signal: signal(), reportProgress: () => undefined }),
    ).rejects.toThrow(/pdf2docx could not convert the PDF/);
  });
});

/** Length of the longest common subsequence of two word lists. */
function commonSubsequence(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const word of a) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) current[j] = word === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    previous = current;
  }
  return previous[b.length]!;
}
