import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { DocumentFamily } from './document.family';
import { OXPS_FROM_XPS } from './document.proof';

/**
 * DjVu and XPS/OpenXPS with the real engines (DjVuLibre, libgxps), from a
 * three-page PDF. The results are read by other programs than the ones that
 * wrote them: poppler (pdfinfo, pdftotext) for PDFs, MuPDF (`mutool`) to
 * render the XPS source, ImageMagick to compare pictures. Ghostscript's XPS
 * writer draws text as outlines, so XPS is checked by its pages and pixels,
 * not its words.
 */
describe('document family: DjVu and XPS', () => {
  const family = new DocumentFamily({ size: 1, maxConversions: 50, timeoutMs: 120_000, python: '/usr/bin/python3', soffice: 'soffice' });
  const signal = () => AbortSignal.timeout(120_000);
  const run = async (command: string, args: string[]) => runEngine({ command, args, timeoutMs: 120_000, signal: signal(), memoryLimitMb: 0 });
  const text = async (command: string, args: string[]) => (await run(command, args)).stdout;
  let dir: string;
  let pdf: string;
  const samples: Record<string, string> = {};
  let counter = 0;

  const convert = async (inputFormat: string, outputFormat: string, options: Record<string, unknown> = {}) => {
    const outputPath = join(dir, `out-${++counter}.${outputFormat}`);
    await family.convert({ inputPath: samples[inputFormat]!, outputPath, inputFormat, outputFormat, options, signal: signal(), reportProgress: () => undefined });
    return outputPath;
  };
  const pages = async (path: string) => Number(/Pages:\s+(\d+)/.exec(await text('pdfinfo', [path]))?.[1]);
  const words = (value: string) => value.split(/\s+/).filter(Boolean);
  /** PSNR of two pictures scaled to the same size, by ImageMagick; `inf` (identical) counts as 100. */
  const psnr = (a: string, b: string) => {
    // compare exits 1 when the pictures differ at all, which is the usual case here.
    const { stderr, status } = spawnSync('compare-im6.q16', ['-metric', 'PSNR', `${a}[200x260!]`, `${b}[200x260!]`, 'null:'], { encoding: 'utf8', timeout: 60_000 });
    if (status !== 0 && status !== 1) throw new Error(`compare failed: ${stderr}`);
    return stderr.trim() === 'inf' ? 100 : Number.parseFloat(stderr);
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'page-documents-'));
    const body = Array.from({ length: 9 }, (_, part) => `# Part ${part + 1}\n\n${Array.from({ length: 60 }, (_, n) => `word${part}x${n}`).join(' ')}\n`).join('\n');
    const markdown = join(dir, 'source.md');
    await writeFile(markdown, body);
    const odt = join(dir, 'source.odt');
    await run('pandoc', ['-o', odt, markdown]);
    pdf = join(dir, 'source.pdf');
    await family.convert({ inputPath: odt, outputPath: pdf, inputFormat: 'odt', outputFormat: 'pdf', options: {}, signal: signal(), reportProgress: () => undefined });
    expect(await pages(pdf)).toBe(3);
    samples['djvu'] = join(dir, 'source.djvu');
    await run('pdf2djvu', ['--quiet', '-o', samples['djvu'], pdf]);
    samples['xps'] = join(dir, 'source.xps');
    await run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=xpswrite', `-sOutputFile=${samples['xps']}`, pdf]);
    samples['oxps'] = join(dir, 'source.oxps');
    await run('python3', ['-c', OXPS_FROM_XPS, samples['xps'], samples['oxps']]);
  }, 240_000);
  afterAll(async () => {
    await family.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('djvu → txt keeps the words of every page in order', async () => {
    const source = words(await text('pdftotext', [pdf, '-']));
    const result = words(await text('cat', [await convert('djvu', 'txt')]));
    expect(result).toEqual(source);
  });

  it('djvu → txt and → pdf keep only the pages asked for', async () => {
    const second = words(await text('cat', [await convert('djvu', 'txt', { page_from: 2, page_to: 2 })]));
    expect(second).toEqual(words(await text('pdftotext', ['-f', '2', '-l', '2', pdf, '-'])));
    expect(await pages(await convert('djvu', 'pdf'))).toBe(3);
    expect(await pages(await convert('djvu', 'pdf', { page_from: 2 }))).toBe(2);
  });

  it('djvu → png, jpg and tiff draw the page the source PDF draws', async () => {
    const reference = join(dir, 'reference');
    await run('pdftocairo', ['-png', '-singlefile', '-f', '2', '-l', '2', '-r', '50', pdf, reference]);
    for (const format of ['png', 'jpg', 'tiff']) {
      expect(psnr(`${reference}.png`, await convert('djvu', format, { page: 2, dpi: 50 }))).toBeGreaterThan(18);
    }
  });

  it.each(['xps', 'oxps'])('%s → pdf and ps keep every page, and its pictures match the source', async (format) => {
    expect(await pages(await convert(format, 'pdf'))).toBe(3);
    expect(await pages(await convert(format, 'pdf', { page_from: 2, page_to: 3 }))).toBe(2);
    expect((await text('cat', [await convert(format, 'ps')])).match(/^%%Page:/gm)).toHaveLength(3);
    const reference = join(dir, `reference-${format}.png`);
    await run('mutool', ['draw', '-q', '-r', '50', '-o', reference, samples['xps']!, '3']);
    for (const output of ['png', 'jpg']) expect(psnr(reference, await convert(format, output, { page: 3, dpi: 50 }))).toBeGreaterThan(25);
    // The third page as a PDF, drawn by poppler, is that page too.
    const third = join(dir, `third-${format}`);
    await run('pdftocairo', ['-png', '-singlefile', '-f', '3', '-l', '3', '-r', '50', await convert(format, 'pdf'), third]);
    expect(psnr(reference, `${third}.png`)).toBeGreaterThan(25);
    expect(await text('cat', [await convert(format, 'svg', { page: 2 })])).toContain('<svg');
  });

  it('refuses a file that is not DjVu or XPS', async () => {
    const fake = join(dir, 'fake.djvu');
    await writeFile(fake, 'not a djvu file');
    samples['fake'] = fake;
    const outputPath = join(dir, 'fake.pdf');
    await expect(
      family.convert({ inputPath: fake, outputPath, inputFormat: 'djvu', outputFormat: 'pdf', options: {}, signal: signal(), reportProgress: () => undefined }),
    ).rejects.toThrow(/not a readable djvu file/);
  });
});
