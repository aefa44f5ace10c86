import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { PAGES, pageHeading, pageSentence } from './document-sample-content';
import { parseDif, parseSylk } from './document-readers';
import { documentPairNote } from './document-notes';
import { documentContentCheck, sampleKind } from './document.fidelity';

/** The document content check must fail a PDF missing a page, with words out of order, or a table missing cells. */
describe('document content check', () => {
  let dir: string;
  const check = documentContentCheck();
  const signal = () => AbortSignal.timeout(60_000);
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  /** A PDF with real text (Helvetica), one page per entry, written as PostScript and turned into PDF by Ghostscript. */
  const pdf = async (name: string, pages: readonly (readonly string[])[]) => {
    const ps = join(dir, `${name}.ps`);
    const escape = (text: string) => text.replace(/[()\\]/g, (char) => `\\${char}`);
    await writeFile(
      ps,
      `%!PS\n/Helvetica findfont 14 scalefont setfont\n${pages.map((page) => `72 700 moveto (${escape(pageHeading(page))}) show 72 680 moveto (${escape(pageSentence(page))}) show showpage`).join('\n')}\n`,
    );
    const path = join(dir, `${name}.pdf`);
    await runEngine({ command: 'gs', args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', `-sOutputFile=${path}`, ps], timeoutMs: 60_000, signal: signal() });
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'document-fidelity-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes the three pages and fails a missing page or a page out of order', async () => {
    const run = async (path: string) => failed(await check({ inputFormat: 'docx', outputFormat: 'pdf' }, '', path, signal()));
    expect(await run(await pdf('good', PAGES))).toEqual([]);
    expect(await run(await pdf('missing', PAGES.slice(0, 2)))).toEqual(['words in order', 'page count']);
    expect(await run(await pdf('swapped', [PAGES[0]!, PAGES[2]!, PAGES[1]!]))).toEqual(['words in order', 'words per page']);
  });

  it('holds a PDF of drawn pages (DjVu, XPS) to its pages and their ink, with the loss declared', async () => {
    const note = documentPairNote('djvu', 'pdf');
    const run = async (path: string, declared: { note?: string } = { note }) => failed(await check({ inputFormat: 'djvu', outputFormat: 'pdf', ...declared }, '', path, signal()));
    expect(note).toMatch(/hidden text layer/);
    expect(await run(await pdf('drawn', PAGES))).toEqual([]);
    expect(await run(await pdf('drawn-short', PAGES.slice(0, 2)))).toEqual(['page count']);
    expect(await run(await pdf('drawn-undeclared', PAGES), {})).toEqual(['declared']);
  });

  it('knows what each new sample holds: a metafile one page, the SXW one flowing page', () => {
    expect(['emf', 'wmf', 'emz', 'wmz'].map(sampleKind)).toEqual(['first-page', 'first-page', 'first-page', 'first-page']);
    expect(sampleKind('sxw')).toBe('flow');
    expect(sampleKind('602')).toBe('paged');
  });

  it('fails a CSV that lost a row', async () => {
    const csv = join(dir, 'short.csv');
    await writeFile(csv, 'name,count,city\nalpha,1,oslo\nbravo,2,lima\n');
    expect(failed(await check({ inputFormat: 'xlsx', outputFormat: 'csv', note: 'only the first sheet, as values' }, '', csv, signal()))).toEqual(['words in order', 'cells']);
  });

  it('reads DIF and SYLK cells', () => {
    expect(parseDif('TABLE\n0,1\n""\nDATA\n0,0\n""\n-1,0\nBOT\n1,0\n"name"\n0,42\nV\n-1,0\nEOD\n')).toEqual([['name', '42']]);
    expect(parseSylk('ID;PCALC\nC;X1;Y1;K"name"\nC;X2;K42\nE\n')).toEqual([['name', '42']]);
  });
});
