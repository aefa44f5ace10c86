import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { runEngine } from '../../engine/run-engine';
import { type CheckedPair, type ContentCheck, Findings } from '../../matrix/fidelity/findings';
import { formatDb, inkCoverage, psnr, readRgba, resized } from '../../matrix/fidelity/pixels';
import { describeWordOrder, wordsInOrder, wordsOf } from '../../matrix/fidelity/words';
import { CELLS, PAGES, cellWords, pageWords } from './document-sample-content';
import { type DocumentReading, parseCsv, readDocument } from './document-readers';
import { METAFILES } from './document-notes';
import { MARKUP_READERS } from './markup-formats';
import { OFFICE_INPUTS } from './office-formats';
import type { OptionCheck, OptionRun } from '../../matrix/fidelity/option-checks';

/** What a sample of an input format holds (document-sample-content.ts). */
export type SampleKind = 'paged' | 'flow' | 'sheet' | 'slides' | 'first-page';

export function sampleKind(inputFormat: string): SampleKind {
  const office = OFFICE_INPUTS[inputFormat];
  if (office?.kind === 'spreadsheet') return 'sheet';
  if (office?.kind === 'presentation') return 'slides';
  // Metafiles and EPS hold the first page of the drawing or PDF they were made from.
  if (METAFILES.has(inputFormat) || inputFormat === 'eps') return 'first-page';
  // AbiWord, the only SXW writer here, drops the page breaks: the sample is one flowing page.
  if (inputFormat === 'sxw') return 'flow';
  if (office?.kind === 'text' && inputFormat === 'txt') return 'flow';
  if (office || ['pdf', 'ps'].includes(inputFormat)) return 'paged';
  if (inputFormat in MARKUP_READERS) return 'flow';
  return 'flow';
}

/** Inputs whose samples hold their text as shapes or pictures (PostScript, Ghostscript's XPS, DjVu's rendered pages): a PDF of them is checked page by page for ink. */
const DRAWN_INPUTS = new Set(['ps', 'eps', 'xps', 'oxps', 'djvu', 'djv']);
/** Outputs that are a picture of one page: they carry no text a reader can take. */
export const PAGE_IMAGES = new Set(['png', 'jpg', 'tiff']);
const PAGED_OUTPUTS = new Set(['pdf', 'ps']);
const SLIDE_OUTPUTS = new Set(['pptx', 'pptm', 'potx', 'ppsx', 'odp', 'otp', 'fodp', 'pdf']);
/** A page image must carry some ink, and not be all ink. */
const INK = { min: 0.001, max: 0.6 };

function expectedWords(kind: SampleKind): string[] {
  if (kind === 'sheet') return cellWords();
  if (kind === 'first-page') return pageWords(PAGES.slice(0, 1));
  return pageWords();
}

const sameCells = (a: readonly (readonly string[])[], b: readonly (readonly string[])[]) => {
  const norm = (rows: readonly (readonly string[])[]) =>
    rows
      .map((row) =>
        row
          .map((cell) =>
            cell
              .trim()
              .toLowerCase()
              .replace(/^(-?\d+)\.0+$/, '$1'),
          )
          .join('|'),
      )
      .join('\n');
  return norm(a) === norm(b);
};

/**
 * The document family's content check. The output is read by a reader other
 * than LibreOffice (document-readers.ts) and held to what the sample says:
 * its words in order, its pages or slides where both sides have them, its
 * cells where both sides are tables. Page pictures are checked for ink, and
 * declare that they hold only the first page.
 */
export function documentContentCheck(): ContentCheck {
  return async (pair, _source, outputPath, signal) => {
    const findings = new Findings();
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      const kind = sampleKind(pair.inputFormat);
      if (PAGE_IMAGES.has(pair.outputFormat)) {
        await checkPageImage(findings, pair, outputPath);
        return findings.list;
      }
      if (pair.outputFormat === 'ps' || pair.outputFormat === 'eps' || (DRAWN_INPUTS.has(pair.inputFormat) && pair.outputFormat === 'pdf')) {
        await checkDrawnPages(findings, pair, outputPath, kind === 'first-page' || pair.outputFormat === 'eps' ? 1 : PAGES.length, scratch, signal);
        return findings.list;
      }
      if (pair.note?.includes('kept as one picture')) {
        const listing = pair.outputFormat.startsWith('f')
          ? await readFile(outputPath, 'latin1')
          : (await runEngine({ command: 'bsdtar', args: ['-tf', outputPath], timeoutMs: 60_000, signal })).stdout;
        findings.expect('declared', true, pair.note);
        findings.expect(
          'picture kept',
          /Pictures\/|<draw:image/.test(listing),
          /Pictures\/|<draw:image/.test(listing) ? 'the drawing holds the metafile as a picture' : 'no picture in the drawing',
        );
        return findings.list;
      }
      let reading: DocumentReading | undefined;
      await findings.attempt('read', async () => {
        reading = await readDocument(outputPath, pair.outputFormat, signal, scratch, { table: kind === 'sheet' });
      });
      if (!reading) return findings.list;
      findings.expect('reader', true, reading.reader);
      if (['svg', 'eps'].includes(pair.outputFormat) && wordsOf(reading.text).length === 0) {
        // pdftocairo draws text as glyph outlines: the picture is checked instead.
        await checkVectorPage(findings, pair, outputPath, scratch, signal);
        return findings.list;
      }
      const onePage = ['first page', 'first slide', 'chosen page'].some((words) => pair.note?.includes(words));
      const expected = onePage ? (kind === 'sheet' ? cellWords() : pageWords(PAGES.slice(0, 1))) : expectedWords(kind);
      // A table's cells are its words, where the reader gives cells (SYLK marks its numbers as K1).
      const order = wordsInOrder(expected, reading.cells ? reading.cells.flat().join(' ') : reading.text);
      findings.expect('words in order', order.found === order.expected, describeWordOrder(order));
      if ((kind === 'paged' || kind === 'slides') && reading.pages && (PAGED_OUTPUTS.has(pair.outputFormat) || (kind === 'slides' && SLIDE_OUTPUTS.has(pair.outputFormat)))) {
        const pages = reading.pages.length;
        findings.expect(kind === 'slides' ? 'slide count' : 'page count', pages === PAGES.length, `source ${PAGES.length}, output ${pages}`);
        if (pages === PAGES.length) {
          const misplaced = PAGES.map((page, i) => (wordsInOrder(pageWords([page]), reading!.pages![i]!).found === page.length ? undefined : i + 1)).filter(Boolean);
          findings.expect(
            'words per page',
            misplaced.length === 0,
            misplaced.length === 0 ? 'each page holds its own words' : `pages without their words: ${misplaced.join(', ')}`,
          );
        }
      }
      if (kind === 'sheet' && reading.cells) {
        findings.expect('cells', sameCells(CELLS, reading.cells), `expected ${JSON.stringify(CELLS)}, read ${JSON.stringify(reading.cells).slice(0, 200)}`);
      }
      return findings.list;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

async function checkPageImage(findings: Findings, pair: CheckedPair, path: string): Promise<void> {
  findings.expect('declared', pair.note !== undefined, pair.note ? `a picture of a page: ${pair.note}` : 'a picture of a page, and the pair declares no loss');
  const image = await readRgba(path);
  const ink = inkCoverage(image);
  findings.expect(
    'ink',
    ink >= INK.min && ink <= INK.max,
    `${(ink * 100).toFixed(2)}% of the ${image.width}x${image.height} picture is ink (text cannot be read from a picture here; a blank or black page fails)`,
  );
}

async function checkVectorPage(findings: Findings, pair: CheckedPair, path: string, scratch: string, signal: AbortSignal): Promise<void> {
  findings.expect('declared', pair.note !== undefined, pair.note ? `text drawn as outlines: ${pair.note}` : 'text drawn as outlines, and the pair declares no loss');
  const png = join(scratch, 'page.png');
  if (pair.outputFormat === 'svg')
    await runEngine({ command: 'rsvg-convert', args: ['--format', 'png', '--background-color', 'white', '--output', png, path], timeoutMs: 60_000, signal });
  else
    await runEngine({
      command: 'gs',
      args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dEPSCrop', '-sDEVICE=png16m', '-r72', `-sOutputFile=${png}`, path],
      timeoutMs: 60_000,
      signal,
    });
  const ink = inkCoverage(await readRgba(png));
  findings.expect('ink', ink >= INK.min && ink <= INK.max, `${(ink * 100).toFixed(2)}% of the rendered page is ink`);
}

/**
 * PostScript keeps no text a reader here can take back (pdftops writes its
 * fonts without a text mapping): each page is rendered by Ghostscript and
 * must carry ink, and the pages must all be there. The pair declares the loss.
 */
async function checkDrawnPages(findings: Findings, pair: CheckedPair, path: string, pages: number, scratch: string, signal: AbortSignal): Promise<void> {
  findings.expect('declared', pair.note !== undefined, pair.note ? `text drawn as shapes: ${pair.note}` : 'text drawn as shapes, and the pair declares no loss');
  const eps = pair.outputFormat === 'eps';
  await runEngine({
    command: 'gs',
    args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', ...(eps ? ['-dEPSCrop'] : []), '-sDEVICE=png16m', '-r36', `-sOutputFile=${join(scratch, 'page-%03d.png')}`, path],
    timeoutMs: 120_000,
    signal,
  });
  const rendered = (await readdir(scratch)).filter((name) => /^page-\d+\.png$/.test(name)).sort();
  findings.expect('page count', rendered.length === pages, `expected ${pages}, Ghostscript renders ${rendered.length}`);
  const blank: number[] = [];
  for (const [i, name] of rendered.entries()) {
    const ink = inkCoverage(await readRgba(join(scratch, name)));
    if (ink < INK.min || ink > INK.max) blank.push(i + 1);
  }
  findings.expect('ink', blank.length === 0, blank.length === 0 ? 'every page carries ink' : `blank or black pages: ${blank.join(', ')}`);
}

/** A PDF with two columns of text, written as PostScript and turned into PDF by Ghostscript: keep_layout has something to keep. */
async function twoColumnPdf(dir: string, signal: AbortSignal): Promise<string> {
  const lines = ['alpha bravo', 'charlie delta', 'echo foxtrot'];
  const ps = join(dir, 'columns.ps');
  await writeFile(
    ps,
    `%!PS\n/Helvetica findfont 12 scalefont setfont\n${lines.map((line, i) => `72 ${700 - i * 16} moveto (left ${line}) show 330 ${700 - i * 16} moveto (right ${line}) show`).join('\n')}\nshowpage\n`,
  );
  const pdf = join(dir, 'sample.pdf');
  await runEngine({ command: 'gs', args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', `-sOutputFile=${pdf}`, ps], timeoutMs: 60_000, signal });
  return pdf;
}

const PAGE_TWO = pageWords(PAGES.slice(1, 2));
const PAGE_ONE = pageWords(PAGES.slice(0, 1));
/** How a file asks its reader to build a table of contents, where the reader builds it (the headings are not repeated as text). */
const TOC_MARKERS: Record<string, RegExp> = {
  rst: /\.\. contents::/,
  tex: /\\tableofcontents/,
  org: /#\+TOC|toc:t|:toc:/i,
  adoc: /:toc:/,
  docx: /TOC \\o|Table of Contents/,
  odt: /text:table-of-content\b/,
};

/** Pages of a PostScript result, as Ghostscript renders them (its text cannot be read back). */
async function pageCounts(run: OptionRun, asked: string, expected: (whole: number, result: number) => boolean) {
  const findings = new Findings();
  const count = async (path: string, name: string) => {
    const dir = join(run.scratch, name);
    await mkdir(dir, { recursive: true });
    await runEngine({
      command: 'gs',
      args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=png16m', '-r18', `-sOutputFile=${join(dir, 'p-%03d.png')}`, path],
      timeoutMs: 120_000,
      signal: run.signal,
    });
    return (await readdir(dir)).length;
  };
  const [whole, result] = [await count(run.first, 'whole'), await count(run.second, 'result')];
  findings.expect('pages', expected(whole, result), `${whole} pages without, ${result} with ${asked} (Ghostscript renders them)`);
  return findings.list;
}

/** The second heading with its number, as a reader shows it ("2 Second foxtrot", "2. Second foxtrot"). */
const NUMBERED_HEADING = /\b2\.?\s+second\s+foxtrot/i;
const has = (text: string, words: readonly string[]) => wordsInOrder(words, text).found === words.length;

export const DOCUMENT_OPTION_CHECKS: OptionCheck[] = [
  {
    option: 'page_from',
    promise: 'the result starts at that page',
    inputs: ['docx', 'odt', 'pdf', 'xlsx', 'pptx'],
    outputs: (_output, input) => sampleKind(input) === 'paged' || sampleKind(input) === 'slides',
    runs: [{}, { page_from: 2 }],
    async verify(run) {
      const findings = new Findings();
      if (run.pair.outputFormat === 'ps') return pageCounts(run, 'page_from 2', (whole, from) => from === whole - 1);
      const [whole, from] = [
        await readDocument(run.first, run.pair.outputFormat, run.signal, run.scratch),
        await readDocument(run.second, run.pair.outputFormat, run.signal, run.scratch),
      ];
      findings.expect(
        'first page left out',
        has(whole.text, PAGE_ONE) && !has(from.text, PAGE_ONE) && has(from.text, PAGE_TWO),
        `without: page 1 words ${has(whole.text, PAGE_ONE)}; page_from 2: page 1 words ${has(from.text, PAGE_ONE)}, page 2 words ${has(from.text, PAGE_TWO)}`,
      );
      if (whole.pages && from.pages)
        findings.expect('pages', from.pages.length === whole.pages.length - 1, `${whole.pages.length} pages without, ${from.pages.length} from page 2`);
      return findings.list;
    },
  },
  {
    option: 'page_to',
    promise: 'the result ends at that page',
    inputs: ['docx', 'odt', 'pdf', 'xlsx', 'pptx'],
    outputs: (_output, input) => sampleKind(input) === 'paged' || sampleKind(input) === 'slides',
    runs: [{}, { page_to: 1 }],
    async verify(run) {
      const findings = new Findings();
      if (run.pair.outputFormat === 'ps') return pageCounts(run, 'page_to 1', (_whole, to) => to === 1);
      const [whole, to] = [
        await readDocument(run.first, run.pair.outputFormat, run.signal, run.scratch),
        await readDocument(run.second, run.pair.outputFormat, run.signal, run.scratch),
      ];
      findings.expect(
        'later pages left out',
        has(whole.text, PAGE_TWO) && !has(to.text, PAGE_TWO) && has(to.text, PAGE_ONE),
        `without: page 2 words ${has(whole.text, PAGE_TWO)}; page_to 1: page 2 words ${has(to.text, PAGE_TWO)}, page 1 words ${has(to.text, PAGE_ONE)}`,
      );
      if (to.pages) findings.expect('pages', to.pages.length === 1, `${to.pages.length} pages up to page 1`);
      return findings.list;
    },
  },
  {
    option: 'pdf_standard',
    promise: 'PDF/A-2b writes a PDF that declares PDF/A-2',
    inputs: ['docx', 'md'],
    runs: [{ pdf_standard: 'none' }, { pdf_standard: 'pdfa-2b' }],
    async verify(run) {
      const findings = new Findings();
      const part = async (path: string) =>
        /pdfaid:part(?:>|=")(\d)/.exec((await runEngine({ command: 'pdfinfo', args: ['-meta', path], timeoutMs: 60_000, signal: run.signal })).stdout)?.[1];
      const [plain, archival] = [await part(run.first), await part(run.second)];
      findings.expect('PDF/A', plain === undefined && archival === '2', `none: PDF/A part ${plain ?? 'absent'}; pdfa-2b: part ${archival ?? 'absent'} (pdfinfo -meta)`);
      return findings.list;
    },
  },
  {
    option: 'delimiter',
    promise: 'the fields are separated by the chosen character',
    inputs: ['xlsx', 'ods'],
    runs: [{ delimiter: 'comma' }, { delimiter: 'semicolon' }],
    async verify(run) {
      const findings = new Findings();
      const [comma, semicolon] = [await readFile(run.first, 'utf8'), await readFile(run.second, 'utf8')];
      const rows = (text: string, delimiter: string) => JSON.stringify(parseCsv(text, delimiter));
      findings.expect(
        'separator',
        rows(comma, ',') === JSON.stringify(CELLS) && rows(semicolon, ';') === JSON.stringify(CELLS) && !semicolon.includes(','),
        `comma: ${JSON.stringify(comma.slice(0, 40))}; semicolon: ${JSON.stringify(semicolon.slice(0, 40))}`,
      );
      return findings.list;
    },
  },
  {
    option: 'table_of_contents',
    promise: 'a table of contents lists the headings before the text',
    inputs: ['md'],
    runs: [{ table_of_contents: false }, { table_of_contents: true }],
    async verify(run) {
      const findings = new Findings();
      const marker = TOC_MARKERS[run.pair.outputFormat];
      if (marker) {
        // Formats whose reader builds the table itself: the file must ask for one.
        const raw = async (path: string) =>
          ['docx', 'odt'].includes(run.pair.outputFormat)
            ? (await runEngine({ command: 'bsdtar', args: ['-xOf', path], timeoutMs: 60_000, signal: run.signal })).stdout
            : await readFile(path, 'utf8');
        const [without, withToc] = [marker.test(await raw(run.first)), marker.test(await raw(run.second))];
        findings.expect('table asked for', !without && withToc, `${String(marker)} without: ${without}; with table_of_contents: ${withToc}`);
        return findings.list;
      }
      const count = async (path: string) => wordsOf((await readDocument(path, run.pair.outputFormat, run.signal, run.scratch)).text).filter((word) => word === 'foxtrot').length;
      const [without, withToc] = [await count(run.first), await count(run.second)];
      findings.expect('headings listed', withToc > without, `the heading word "foxtrot" appears ${without} times without, ${withToc} times with a table of contents`);
      return findings.list;
    },
  },
  {
    option: 'number_sections',
    promise: 'headings are numbered',
    inputs: ['md'],
    runs: [{ number_sections: false }, { number_sections: true }],
    async verify(run) {
      const findings = new Findings();
      // LaTeX numbers sections itself unless the preamble turns numbering off.
      const numbered = async (path: string) =>
        run.pair.outputFormat === 'tex'
          ? !/secnumdepth\}\{-\\maxdimen\}/.test(await readFile(path, 'utf8'))
          : NUMBERED_HEADING.test((await readDocument(path, run.pair.outputFormat, run.signal, run.scratch)).text);
      const [plain, numberedRun] = [await numbered(run.first), await numbered(run.second)];
      findings.expect('numbers', !plain && numberedRun, `"2 Second foxtrot" without: ${plain}; with number_sections: ${numberedRun}`);
      return findings.list;
    },
  },
  {
    option: 'page',
    promise: 'the chosen page is rendered',
    inputs: ['pdf'],
    runs: [{ page: 1 }, { page: 2 }],
    async verify(run) {
      const findings = new Findings();
      const raster = async (path: string, name: string) => {
        if (PAGE_IMAGES.has(run.pair.outputFormat)) return readRgba(path);
        const png = join(run.scratch, `${name}.png`);
        if (run.pair.outputFormat === 'svg')
          await runEngine({ command: 'rsvg-convert', args: ['--format', 'png', '--background-color', 'white', '--output', png, path], timeoutMs: 60_000, signal: run.signal });
        else
          await runEngine({
            command: 'gs',
            args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dEPSCrop', '-sDEVICE=png16m', '-r72', `-sOutputFile=${png}`, path],
            timeoutMs: 60_000,
            signal: run.signal,
          });
        return readRgba(png);
      };
      const second = await raster(run.second, 'second');
      // Ghostscript renders the source's pages 1 and 2: the result must look like page 2.
      const reference = async (page: number) => {
        const png = join(run.scratch, `gs-${page}.png`);
        await runEngine({
          command: 'gs',
          args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=png16m', '-r72', `-dFirstPage=${page}`, `-dLastPage=${page}`, `-sOutputFile=${png}`, run.source],
          timeoutMs: 60_000,
          signal: run.signal,
        });
        const image = await sharp(png).flatten({ background: '#ffffff' }).png().toBuffer();
        await writeFile(png, image);
        return resized(await readRgba(png), second.width, second.height);
      };
      const [one, two] = [psnr(await reference(1), second), psnr(await reference(2), second)];
      findings.expect('page 2', two > one, `page=2 result against Ghostscript's page 1: ${formatDb(one)}, against its page 2: ${formatDb(two)}`);
      return findings.list;
    },
  },
  {
    option: 'dpi',
    promise: 'twice the resolution gives twice the pixels a side',
    inputs: ['pdf', 'ps', 'eps'],
    runs: [{ dpi: 72 }, { dpi: 144 }],
    async verify(run) {
      const findings = new Findings();
      const [low, high] = [await sharp(run.first).metadata(), await sharp(run.second).metadata()];
      findings.expect('width', Math.abs((high.width ?? 0) - 2 * (low.width ?? 0)) <= 2, `72 dpi: ${low.width}x${low.height}; 144 dpi: ${high.width}x${high.height}`);
      return findings.list;
    },
  },
  {
    option: 'keep_layout',
    promise: 'layout mode keeps columns side by side',
    inputs: ['pdf'],
    source: (_format, dir, signal) => twoColumnPdf(dir, signal),
    runs: [{ keep_layout: false }, { keep_layout: true }],
    async verify(run) {
      const findings = new Findings();
      const sideBySide = async (path: string) => (await readFile(path, 'utf8')).split('\n').some((line) => /left alpha bravo\s{2,}right alpha bravo/.test(line));
      const [reading, layout] = [await sideBySide(run.first), await sideBySide(run.second)];
      findings.expect('columns', !reading && layout, `a line with both columns: reading order ${reading}, layout ${layout}`);
      return findings.list;
    },
  },
];
