import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { ZIP, expectBytes, expectText, head } from '../../matrix/output-checks';
import { type SampleMaker, cachedSampleMaker, copiedSampleProof } from '../../matrix/sample-cache';
import { SAMPLE_WORD, verifyDocumentOutput } from '../document/document.proof';
import { EBOOK_NARROWED, EBOOK_OPTION_CHECKS, EBOOK_WITHDRAWN, ebookContentCheck } from './ebook.fidelity';
import { proofScratch } from '../../matrix/proof-scratch';

/** The sample book: a title and two chapters of distinctive words (ebook.fidelity.ts looks for them). */
export const BOOK_TITLE = `${SAMPLE_WORD} sample book`;
export const CHAPTERS: readonly (readonly string[])[] = [
  ['Chapter', 'one', 'alpha', 'bravo', 'charlie', 'delta'],
  ['Chapter', 'two', 'echo', 'foxtrot', 'golf', 'hotel'],
];
const MARKDOWN = `---
title: ${BOOK_TITLE}
author: Transmute Tests
---

${CHAPTERS.map((chapter) => `# ${chapter.slice(0, 2).join(' ')}\n\n${chapter.slice(2).join(' ')} *e-books* with **care**.\n`).join('\n')}`;

const CALIBRE_ENV = { QTWEBENGINE_DISABLE_SANDBOX: '1', QTWEBENGINE_CHROMIUM_FLAGS: '--disable-gpu' };
/** Formats pandoc writes from the markdown sample. */
const PANDOC_SAMPLES: Record<string, string[]> = {
  epub: ['-t', 'epub3'],
  docx: ['-t', 'docx'],
  odt: ['-t', 'odt'],
  rtf: ['-s', '-t', 'rtf'],
  txt: ['-t', 'plain'],
};
/** Formats calibre writes from the EPUB sample. */
const CALIBRE_SAMPLES = new Set(['mobi', 'azw3', 'fb2', 'lit', 'lrf', 'pdb', 'pmlz', 'rb', 'tcr', 'txtz', 'htmlz', 'pdf']);
/** Other names of the MOBI container that readers (and calibre) accept. */
const MOBI_ALIASES = new Set(['azw', 'prc']);

export function ebookProof(): FamilyProof {
  const scratch = proofScratch('transmute-ebook-samples-');
  const make: SampleMaker = cachedSampleMaker(async (format, signal) => {
    const dir = await scratch.dir();
    const path = join(dir, `sample.${format}`);
    if (format === 'md') {
      await writeFile(path, MARKDOWN);
    } else if (PANDOC_SAMPLES[format]) {
      await runEngine({ command: 'pandoc', args: ['-f', 'markdown', ...PANDOC_SAMPLES[format], '-o', path, await make('md', signal)], timeoutMs: 60_000, signal });
    } else if (CALIBRE_SAMPLES.has(format)) {
      await runEngine({
        command: 'ebook-convert',
        args: [await make('epub', signal), path],
        env: CALIBRE_ENV,
        timeoutMs: 120_000,
        memoryLimitMb: 0,
        signal,
      });
    } else if (MOBI_ALIASES.has(format)) {
      await copyFile(await make('mobi', signal), path);
    } else if (format === 'cbz') {
      // A comic: two page images (rendered from the PDF sample) in a zip.
      const pages = await mkdtemp(join(dir, 'comic-'));
      await runEngine({ command: 'pdftocairo', args: ['-png', '-r', '40', '-f', '1', '-l', '2', await make('pdf', signal), join(pages, 'page')], timeoutMs: 60_000, signal });
      // Members by name: calibre refuses a `./` entry.
      const images = (await readdir(pages)).sort();
      await runEngine({ command: 'bsdtar', args: ['--format', 'zip', '-cf', path, '-C', pages, ...images], timeoutMs: 60_000, signal });
    } else if (format === 'cb7' || format === 'cbc' || format === 'fbz' || format === 'pml') {
      await packedSample(format, path, dir, (name) => make(name, signal), signal);
    } else {
      throw new Error(`the ebook proof cannot make a ${format} sample`);
    }
    return path;
  });

  return {
    ...copiedSampleProof('ebook', make, verifyEbookOutput),
    checkContent: ebookContentCheck(),
    optionChecks: EBOOK_OPTION_CHECKS,
    withdrawn: EBOOK_WITHDRAWN,
    narrowed: EBOOK_NARROWED,
    dispose: scratch.dispose,
  };
}

export async function verifyEbookOutput(format: string, path: string): Promise<void> {
  const bytes = await head(path);
  switch (format) {
    case 'mobi':
    case 'azw3':
      return expectBytes(bytes, 'BOOKMOBI', 60, 'MOBI/KF8 book');
    case 'pdb':
      return expectBytes(bytes, 'TEXtREAd', 60, 'PalmDoc book');
    case 'fb2':
      return void (await expectText(path, ['<FictionBook', 'alpha'], 'FictionBook'));
    case 'lit':
      return expectBytes(bytes, 'ITOLITLS', 0, 'Microsoft Reader book');
    case 'lrf':
      return expectBytes(bytes, 'L\0R\0F\0', 0, 'Sony BBeB book');
    case 'rb':
      return expectBytes(bytes, [0xb0, 0x0c, 0xb0, 0x0c], 0, 'Rocket eBook');
    case 'tcr':
      return expectBytes(bytes, '!!8-Bit!!', 0, 'TCR book');
    case 'pmlz':
    case 'txtz':
    case 'htmlz':
      return expectBytes(bytes, ZIP, 0, `${format} archive`);
    default:
      // epub, pdf, docx, rtf, txt: the document family's checks.
      return verifyDocumentOutput(format, path);
  }
}

/**
 * Samples that repack another sample: the comic's pages in a 7z (cb7), the
 * comic as the one book of a comic collection (cbc: a zip of cbz files and the
 * comics.txt that titles them), the FB2 book zipped (fbz), the PML text out of
 * calibre's PMLZ (pml).
 */
async function packedSample(format: 'cb7' | 'cbc' | 'fbz' | 'pml', path: string, dir: string, make: (format: string) => Promise<string>, signal: AbortSignal): Promise<void> {
  const run = (command: string, args: string[], stdoutFile?: string) => runEngine({ command, args, timeoutMs: 60_000, signal, stdoutFile });
  const unpacked = await mkdtemp(join(dir, `${format}-`));
  switch (format) {
    case 'cb7': {
      await run('bsdtar', ['-xf', await make('cbz'), '-C', unpacked]);
      const pages = (await readdir(unpacked)).sort();
      await runEngine({ command: '7zz', args: ['a', '-bd', '-t7z', path, ...pages], cwd: unpacked, timeoutMs: 60_000, signal });
      return;
    }
    case 'cbc':
      await copyFile(await make('cbz'), join(unpacked, 'first.cbz'));
      await writeFile(join(unpacked, 'comics.txt'), `first.cbz:${SAMPLE_WORD} comic\n`);
      await run('bsdtar', ['--format', 'zip', '-cf', path, '-C', unpacked, 'comics.txt', 'first.cbz']);
      return;
    case 'fbz':
      await copyFile(await make('fb2'), join(unpacked, 'book.fb2'));
      await run('bsdtar', ['--format', 'zip', '-cf', path, '-C', unpacked, 'book.fb2']);
      return;
    case 'pml':
      await run('bsdtar', ['-xOf', await make('pmlz'), '*.pml'], path);
      return;
  }
}
