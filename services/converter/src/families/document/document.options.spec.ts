import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { DocumentFamily } from './document.family';

/**
 * Each option the document family declares, shown to change the output with
 * the real engines (warm LibreOffice, pandoc, poppler). A missing engine
 * fails these tests; it never skips them.
 */
describe('document family options', () => {
  const family = new DocumentFamily({ size: 1, maxConversions: 50, timeoutMs: 60_000, python: '/usr/bin/python3', soffice: 'soffice' });
  let dir: string;
  let counter = 0;
  const signal = () => AbortSignal.timeout(60_000);
  const MARKDOWN = '# One\n\nFirst.\n\n# Two\n\nSecond.\n\n# Three\n\nThird.\n';

  const convert = async (inputPath: string, inputFormat: string, outputFormat: string, options: Record<string, unknown> = {}) => {
    const outputPath = join(dir, `out-${++counter}.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options, signal: signal(), reportProgress: () => undefined });
    return outputPath;
  };
  const pdfPages = async (path: string) => {
    const { stdout } = await runEngine({ command: 'pdfinfo', args: [path], timeoutMs: 30_000, signal: signal() });
    return Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);
  };
  const pngSize = async (path: string) => {
    const bytes = await readFile(path);
    return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  };

  let markdown: string;
  let slides: string;
  let slidesPdf: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'document-options-'));
    markdown = join(dir, 'sample.md');
    await writeFile(markdown, MARKDOWN);
    // Three level-1 headings make three slides: a three-page document to cut.
    slides = join(dir, 'slides.pptx');
    await runEngine({ command: 'pandoc', args: ['-t', 'pptx', '-o', slides, markdown], timeoutMs: 60_000, signal: signal() });
    await family.start();
    slidesPdf = await convert(slides, 'pptx', 'pdf');
  }, 120_000);
  afterAll(async () => {
    await family.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('page_from/page_to cut the PDF to that page range', async () => {
    expect(await pdfPages(slidesPdf)).toBe(3);
    expect(await pdfPages(await convert(slides, 'pptx', 'pdf', { page_from: 2, page_to: 3 }))).toBe(2);
    expect(await pdfPages(await convert(slides, 'pptx', 'pdf', { page_from: 3 }))).toBe(1);
  });

  it('pdf_standard writes a PDF/A file with its conformance in the XMP metadata', async () => {
    const plain = await readFile(await convert(markdown, 'md', 'pdf'), 'latin1');
    const archival = await readFile(await convert(slides, 'pptx', 'pdf', { pdf_standard: 'pdfa-2b' }), 'latin1');
    expect(plain).not.toMatch(/pdfaid:part/);
    expect(archival).toMatch(/pdfaid:part[^0-9]{1,3}2/);
    expect(archival).toMatch(/pdfaid:conformance[^A-Z]{1,3}B/);
  });

  it('delimiter picks the csv field separator', async () => {
    const csv = join(dir, 'table.csv');
    await writeFile(csv, 'name,count\nalpha,1\n');
    const xlsx = await convert(csv, 'csv', 'xlsx');
    expect(await readFile(await convert(xlsx, 'xlsx', 'csv'), 'utf8')).toMatch(/^name,count/);
    expect(await readFile(await convert(xlsx, 'xlsx', 'csv', { delimiter: 'semicolon' }), 'utf8')).toMatch(/^name;count/);
    expect(await readFile(await convert(xlsx, 'xlsx', 'csv', { delimiter: 'tab' }), 'utf8')).toMatch(/^name\tcount/);
  });

  it('table_of_contents adds a table of contents', async () => {
    expect(await readFile(await convert(markdown, 'md', 'html'), 'utf8')).not.toContain('id="TOC"');
    const withToc = await readFile(await convert(markdown, 'md', 'html', { table_of_contents: true }), 'utf8');
    expect(withToc).toContain('id="TOC"');
    expect(withToc).toContain('href="#three"');
  });

  it('number_sections numbers the headings', async () => {
    expect(await readFile(await convert(markdown, 'md', 'html'), 'utf8')).not.toContain('header-section-number');
    expect(await readFile(await convert(markdown, 'md', 'html', { number_sections: true }), 'utf8')).toMatch(/header-section-number">3</);
  });

  it('page picks the PDF page to render, dpi its resolution', async () => {
    const first = await readFile(await convert(slidesPdf, 'pdf', 'png', { dpi: 72 }));
    const second = await readFile(await convert(slidesPdf, 'pdf', 'png', { dpi: 72, page: 2 }));
    expect(first.equals(second)).toBe(false);
    const [width72, height72] = await pngSize(await convert(slidesPdf, 'pdf', 'png', { dpi: 72 }));
    const [width144, height144] = await pngSize(await convert(slidesPdf, 'pdf', 'png', { dpi: 144 }));
    expect(width144).toBeGreaterThanOrEqual(2 * width72! - 1);
    expect(height144).toBeGreaterThanOrEqual(2 * height72! - 1);
  });

  it('keep_layout keeps the columns of a table on one line', async () => {
    const csv = join(dir, 'wide.csv');
    await writeFile(csv, 'left,middle,right\nalpha,beta,gamma\n');
    const pdf = await convert(csv, 'csv', 'pdf');
    const flowing = await readFile(await convert(pdf, 'pdf', 'txt'), 'utf8');
    const laidOut = await readFile(await convert(pdf, 'pdf', 'txt', { keep_layout: true }), 'utf8');
    // Reading order splits the row; the physical layout keeps it on one line.
    expect(laidOut).toMatch(/left +middle +right/);
    expect(laidOut).toMatch(/alpha +beta +gamma/);
    expect(flowing).not.toMatch(/alpha +beta +gamma/);
  });

  it('never lets pandoc read a file or URL the document points at', async () => {
    const secret = join(dir, 'secret.png');
    await writeFile(secret, 'TOP-SECRET-MARKER');
    const hostile = join(dir, 'hostile.md');
    await writeFile(hostile, `# Title\n\n![secret](${secret})\n\n![remote](http://127.0.0.1:9/x.png)\n\nBody.\n`);
    for (const format of ['docx', 'odt']) {
      const { stdout } = await runEngine({ command: 'bsdtar', args: ['-tf', await convert(hostile, 'md', format)], timeoutMs: 30_000, signal: signal() });
      expect(stdout).toContain(format === 'docx' ? 'word/document.xml' : 'content.xml');
      expect(stdout).not.toMatch(/media\/|Pictures\//);
    }
    // A text writer under --sandbox: the image stays a reference, its bytes are never read.
    expect(await readFile(await convert(hostile, 'md', 'html'), 'utf8')).not.toContain('TOP-SECRET-MARKER');
  });

  it('ignores options it does not declare', async () => {
    const path = await convert(markdown, 'md', 'rst', { no_such_option: 1, dpi: 'loud' });
    expect(await readFile(path, 'utf8')).toContain('Three');
  });
});
