import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { SAMPLE_WORD } from '../document/document.proof';
import { EbookFamily } from './ebook.family';
import { ebookProof } from './ebook.proof';

/** Outputs whose content a reader other than calibre can open: zip packages, PDF, and text. */
const ZIPPED = new Set(['epub', 'htmlz', 'txtz', 'pmlz', 'docx']);
const READABLE = new Set([...ZIPPED, 'pdf', 'fb2', 'rtf', 'txt']);

/**
 * cb7 and cbc (comics), fbz (zipped FB2) and pml, converted by the real
 * calibre to every output another reader can open: bsdtar for the zipped
 * outputs, poppler for PDF, the text itself for FB2, RTF and TXT. A book must
 * keep its title and, after it, its second chapter; a comic its two pages (PDF
 * pages, pictures in the RTF, or page images in the package). The other outputs (MOBI, AZW3, LIT,
 * LRF, PDB, RB, TCR) are compressed formats only calibre reads here: the
 * matrix checks their signatures.
 */
describe('ebook family: cb7, cbc, fbz and pml', () => {
  const family = new EbookFamily();
  const proof = ebookProof();
  const signal = () => AbortSignal.timeout(300_000);
  const pairs = family.pairs().filter((pair) => ['cb7', 'cbc', 'fbz', 'pml'].includes(pair.inputFormat) && READABLE.has(pair.outputFormat));
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ebook-more-'));
  });
  afterAll(() => Promise.all([rm(dir, { recursive: true, force: true }), proof.dispose?.()]));

  it('offers comics no text-only output', () => {
    const outputs = family
      .pairs()
      .filter((pair) => pair.inputFormat === 'cb7')
      .map((pair) => pair.outputFormat);
    expect(outputs).not.toContain('txt');
    expect(outputs).toContain('epub');
  });

  it.each(pairs.map((pair) => [pair.inputFormat, pair.outputFormat]))(
    '%s → %s keeps the content',
    async (inputFormat, outputFormat) => {
      const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
      const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
      const outputPath = join(pairDir, `out.${outputFormat}`);
      await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
      const run = async (command: string, args: string[]) => (await runEngine({ command, args, timeoutMs: 60_000, signal: signal() })).stdout;
      if (inputFormat === 'cb7' || inputFormat === 'cbc') {
        if (outputFormat === 'pdf') expect(Number(/Pages:\s+(\d+)/.exec(await run('pdfinfo', [outputPath]))?.[1])).toBe(2);
        else if (outputFormat === 'rtf') expect((await readFile(outputPath, 'latin1')).match(/\{\\pict/g)?.length).toBeGreaterThanOrEqual(2);
        else expect((await run('bsdtar', ['-tf', outputPath])).split('\n').filter((name) => /\.(png|jpe?g|gif)$/i.test(name)).length).toBeGreaterThanOrEqual(2);
        return;
      }
      const text =
        outputFormat === 'pdf'
          ? await run('pdftotext', [outputPath, '-'])
          : ZIPPED.has(outputFormat)
            ? await run('bsdtar', ['-xOf', outputPath, '--exclude', '*.png', '--exclude', '*.jpg', '--exclude', '*.jpeg', '--exclude', '*.gif'])
            : await readFile(outputPath, 'utf8');
      const flat = text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(flat).toContain(SAMPLE_WORD);
      // The title comes first, the second chapter's heading later.
      expect(flat.slice(flat.indexOf(SAMPLE_WORD))).toMatch(/Chapter two/i);
    },
    300_000,
  );
});
