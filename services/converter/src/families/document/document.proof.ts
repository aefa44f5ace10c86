import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { OLE2, expectBytes, expectOoxml, expectText, expectZipMimetype, head } from '../../matrix/output-checks';
import { type SampleMaker, cachedSampleMaker, copiedSampleProof } from '../../matrix/sample-cache';
import { CREOLE, CSV, MARKDOWN, PAGED_HTML, PAGES, T2T, TEXT, TSV, pageHeading, pageSentence } from './document-sample-content';
import { DOCUMENT_OPTION_CHECKS, documentContentCheck } from './document.fidelity';
import { MARKUP_NARROWED } from './markup-formats';
import { proofScratch } from '../../matrix/proof-scratch';

/** A word every sample carries, so text outputs can be checked for content, not only shape. */
export const SAMPLE_WORD = 'Transmute';

/** The slides sample: one slide per page (pandoc makes a slide of each heading with its text). */
const SLIDES_MARKDOWN = MARKDOWN;

/** Output formats pandoc writes from the markdown sample, and the writer for each. */
const PANDOC_SAMPLES: Record<string, string[]> = {
  md: [],
  markdown: [],
  rst: ['-t', 'rst'],
  tex: ['-s', '-t', 'latex'],
  latex: ['-s', '-t', 'latex'],
  ltx: ['-s', '-t', 'latex'],
  org: ['-t', 'org'],
  textile: ['-t', 'textile'],
  mediawiki: ['-t', 'mediawiki'],
  wiki: ['-t', 'mediawiki'],
  dbk: ['-s', '-t', 'docbook5'],
  opml: ['-s', '-t', 'opml'],
  muse: ['-t', 'muse'],
  ipynb: ['-t', 'ipynb'],
  html: ['-s', '-t', 'html5'],
  htm: ['-s', '-t', 'html5'],
  xhtml: ['-s', '-t', 'html5'],
  man: ['-s', '-t', 'man'],
};

/** LibreOffice export filter for each office sample, and the sample it is made from. */
const OFFICE_SAMPLES: Record<string, { from: string; filter: string; infilter?: string }> = {
  // Writer imports the paged HTML as three pages; every other text sample comes from this ODT.
  odt: { from: 'paged-html', filter: 'writer8', infilter: 'HTML (StarWriter)' },
  doc: { from: 'odt', filter: 'MS Word 97' },
  docx: { from: 'odt', filter: 'MS Word 2007 XML' },
  docm: { from: 'odt', filter: 'MS Word 2007 XML VBA' },
  dot: { from: 'odt', filter: 'MS Word 97 Vorlage' },
  dotx: { from: 'odt', filter: 'MS Word 2007 XML Template' },
  ott: { from: 'odt', filter: 'writer8_template' },
  fodt: { from: 'odt', filter: 'OpenDocument Text Flat XML' },
  rtf: { from: 'odt', filter: 'Rich Text Format' },
  pdf: { from: 'odt', filter: 'writer_pdf_Export' },
  xls: { from: 'csv', filter: 'MS Excel 97' },
  xlsx: { from: 'csv', filter: 'Calc MS Excel 2007 XML' },
  xlsm: { from: 'csv', filter: 'Calc MS Excel 2007 VBA XML' },
  xlt: { from: 'csv', filter: 'MS Excel 97 Vorlage/Template' },
  xltx: { from: 'csv', filter: 'Calc MS Excel 2007 XML Template' },
  ods: { from: 'csv', filter: 'calc8' },
  ots: { from: 'csv', filter: 'calc8_template' },
  fods: { from: 'csv', filter: 'OpenDocument Spreadsheet Flat XML' },
  dif: { from: 'csv', filter: 'DIF' },
  slk: { from: 'csv', filter: 'SYLK' },
  uos: { from: 'csv', filter: 'UOF spreadsheet' },
  ppt: { from: 'pptx', filter: 'MS PowerPoint 97' },
  pptm: { from: 'pptx', filter: 'Impress MS PowerPoint 2007 XML VBA' },
  pot: { from: 'pptx', filter: 'MS PowerPoint 97 Vorlage' },
  potx: { from: 'pptx', filter: 'Impress MS PowerPoint 2007 XML Template' },
  ppsx: { from: 'pptx', filter: 'Impress MS PowerPoint 2007 XML AutoPlay' },
  odp: { from: 'pptx', filter: 'impress8' },
  otp: { from: 'pptx', filter: 'impress8_template' },
  fodp: { from: 'pptx', filter: 'OpenDocument Presentation Flat XML' },
  uop: { from: 'pptx', filter: 'UOF presentation' },
  odg: { from: 'pdf', filter: 'draw8' },
  otg: { from: 'odg', filter: 'draw8_template' },
  fodg: { from: 'odg', filter: 'OpenDocument Drawing Flat XML' },
  emf: { from: 'odg', filter: 'draw_emf_Export' },
  wmf: { from: 'odg', filter: 'draw_wmf_Export' },
  pps: { from: 'pptx', filter: 'MS PowerPoint 97 AutoPlay' },
  uot: { from: 'odt', filter: 'UOF text' },
  odm: { from: 'odt', filter: 'writerglobal8' },
  otm: { from: 'odt', filter: 'writerglobal8_template' },
};

/** AbiWord's exporter for each format it writes a sample of (from the ODT sample); zabw is its abw, gzipped. */
const ABIWORD_SAMPLES: Record<string, string> = { abw: 'abw', awt: 'awt', sxw: 'sxw' };
/** Gnumeric's ssconvert exporter for each format it writes a sample of (from the CSV sample). */
const GNUMERIC_SAMPLES: Record<string, string> = { gnumeric: 'Gnumeric_XmlIO:sax' };

/**
 * Macro-enabled OOXML templates: LibreOffice saves them under the plain
 * template's (or document's) content type, so the sample made from that
 * file gets the main part's macro-enabled template type, as Office writes it.
 */
const MACRO_TEMPLATES: Record<string, { from: string; filter: string; mainType: string }> = {
  dotm: { from: 'odt', filter: 'MS Word 2007 XML Template', mainType: 'application/vnd.ms-word.template.macroEnabledTemplate.main+xml' },
  xltm: { from: 'csv', filter: 'Calc MS Excel 2007 XML Template', mainType: 'application/vnd.ms-excel.template.macroEnabled.main+xml' },
  potm: { from: 'pptx', filter: 'Impress MS PowerPoint 2007 XML Template', mainType: 'application/vnd.ms-powerpoint.template.macroEnabled.main+xml' },
};

const RETYPE_MAIN_PART = String.raw`
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as source, zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as target:
    for part in source.infolist():
        data = source.read(part)
        if part.filename == '[Content_Types].xml':
            data = re.sub(rb'ContentType="[^"]*\.main\+xml"', b'ContentType="' + sys.argv[3].encode() + b'"', data, count=1)
        target.writestr(part.filename, data)
`;

/**
 * T602, the Czech DOS word processor: the sample's three pages as text with
 * @ commands (code page, margins) and the .PA dot command between pages,
 * which LibreOffice's import reads as page breaks.
 */
const T602 = `@CT 0\r\n@LM 1\r\n@RM 60\r\n${PAGES.map((page) => `${pageHeading(page)}\r\n\r\n${pageSentence(page)}\r\n`).join('.PA\r\n')}`;

/**
 * OpenXPS (ECMA-388) is Microsoft's XPS under its own namespace and content
 * types; nothing here writes it, so the XPS sample is rewritten part by part.
 */
export const OXPS_FROM_XPS = String.raw`
import sys, zipfile
renames = [(b'http://schemas.microsoft.com/xps/2005/06', b'http://schemas.openxps.org/oxps/v1.0'),
           (b'application/vnd.ms-package.xps-fixeddocumentsequence+xml', b'application/vnd.openxps-fixeddocumentsequence+xml'),
           (b'application/vnd.ms-package.xps-fixeddocument+xml', b'application/vnd.openxps-fixeddocument+xml'),
           (b'application/vnd.ms-package.xps-fixedpage+xml', b'application/vnd.openxps-fixedpage+xml')]
with zipfile.ZipFile(sys.argv[1]) as xps, zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as oxps:
    for part in xps.infolist():
        data = xps.read(part)
        if part.filename.endswith(('.fdseq', '.fdoc', '.fpage', '.rels', '.xml')):
            for old, new in renames:
                data = data.replace(old, new)
        oxps.writestr(part.filename, data)
`;

/** Samples of each format, made once per proof and copied into the directory the runner asks for. */
export function documentProof(): FamilyProof {
  const scratch = proofScratch('transmute-document-samples-');
  // One cold LibreOffice at a time on one profile: sample making is not the product path.
  let officeQueue: Promise<unknown> = Promise.resolve();

  const office = (input: string, output: string, filter: string, signal: AbortSignal, importFilter?: string) => {
    const run = officeQueue.then(async () => {
      const dir = await scratch.dir();
      const outDir = await mkdtemp(join(dir, 'lo-'));
      const ext = output.split('.').pop()!;
      const infilter = importFilter ? [`--infilter=${importFilter}`] : input.endsWith('.pdf') ? ['--infilter=draw_pdf_import'] : [];
      await runEngine({
        command: 'soffice',
        args: [
          `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
          '--headless',
          '--norestore',
          ...infilter,
          '--convert-to',
          `${ext}:${filter}`,
          '--outdir',
          outDir,
          input,
        ],
        timeoutMs: 120_000,
        memoryLimitMb: 0,
        signal,
      });
      const written = join(outDir, `${basename(input).replace(/\.[^.]+$/, '')}.${ext}`);
      await copyFile(written, output);
    });
    officeQueue = run.catch(() => undefined);
    return run;
  };

  const make: SampleMaker = cachedSampleMaker(async (format, signal) => {
    const dir = await scratch.dir();
    // The paged HTML only feeds the ODT sample; LibreOffice needs its real extension.
    const path = join(dir, format === 'paged-html' ? 'paged.html' : `sample.${format}`);
    if (format === 'md' || format === 'markdown') await writeFile(path, MARKDOWN);
    else if (format === 'csv') await writeFile(path, CSV);
    else if (format === 'tsv') await writeFile(path, TSV);
    else if (format === 'txt') await writeFile(path, TEXT);
    else if (format === 't2t') await writeFile(path, T2T);
    else if (format === 'creole') await writeFile(path, CREOLE);
    else if (format === 'paged-html') await writeFile(path, PAGED_HTML);
    else if (format === 'pptx') {
      const slides = join(dir, 'slides.md');
      await writeFile(slides, SLIDES_MARKDOWN);
      await runEngine({ command: 'pandoc', args: ['--from', 'markdown', '-t', 'pptx', '-o', path, slides], timeoutMs: 60_000, signal });
    } else if (PANDOC_SAMPLES[format]) {
      await runEngine({ command: 'pandoc', args: ['--from', 'markdown', ...PANDOC_SAMPLES[format], '-o', path, await make('md', signal)], timeoutMs: 60_000, signal });
    } else if (OFFICE_SAMPLES[format]) {
      const { from, filter, infilter } = OFFICE_SAMPLES[format];
      await office(await make(from, signal), path, filter, signal, infilter);
    } else if (ABIWORD_SAMPLES[format]) {
      await runEngine({ command: 'abiword', args: [`--to=${ABIWORD_SAMPLES[format]}`, '-o', path, await make('odt', signal)], timeoutMs: 60_000, signal, memoryLimitMb: 0 });
    } else if (MACRO_TEMPLATES[format]) {
      const { from, filter, mainType } = MACRO_TEMPLATES[format];
      const saved = join(dir, `as-saved.${format}`);
      await office(await make(from, signal), saved, filter, signal);
      await runEngine({ command: 'python3', args: ['-c', RETYPE_MAIN_PART, saved, path, mainType], timeoutMs: 60_000, signal });
    } else if (format === 'emz' || format === 'wmz') {
      await writeFile(path, gzipSync(await readFile(await make(format === 'emz' ? 'emf' : 'wmf', signal))));
    } else if (format === '602') {
      await writeFile(path, T602);
    } else if (format === 'zabw') {
      await writeFile(path, gzipSync(await readFile(await make('abw', signal))));
    } else if (GNUMERIC_SAMPLES[format]) {
      await runEngine({ command: 'ssconvert', args: ['--export-type', GNUMERIC_SAMPLES[format], await make('csv', signal), path], timeoutMs: 60_000, signal, memoryLimitMb: 0 });
    } else if (format === 'djvu' || format === 'djv') {
      // pdf2djvu keeps the PDF's text as DjVu's hidden text layer.
      await runEngine({ command: 'pdf2djvu', args: ['--quiet', '-o', path, await make('pdf', signal)], timeoutMs: 120_000, signal, memoryLimitMb: 0 });
    } else if (format === 'xps') {
      await runEngine({
        command: 'gs',
        args: ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=xpswrite', `-sOutputFile=${path}`, await make('pdf', signal)],
        timeoutMs: 120_000,
        signal,
      });
    } else if (format === 'oxps') {
      await runEngine({ command: 'python3', args: ['-c', OXPS_FROM_XPS, await make('xps', signal), path], timeoutMs: 60_000, signal });
    } else if (format === 'ps') {
      await runEngine({ command: 'pdftops', args: [await make('pdf', signal), path], timeoutMs: 60_000, signal });
    } else if (format === 'eps') {
      await runEngine({ command: 'pdftocairo', args: ['-eps', '-f', '1', '-l', '1', await make('pdf', signal), path], timeoutMs: 60_000, signal });
    } else {
      throw new Error(`the document proof cannot make a ${format} sample`);
    }
    return path;
  });

  return {
    ...copiedSampleProof('document', make, verifyDocumentOutput),
    checkContent: documentContentCheck(),
    optionChecks: DOCUMENT_OPTION_CHECKS,
    narrowed: [...MARKUP_NARROWED],
    dispose: scratch.dispose,
  };
}

/** Checks that `path` really is a `format` file. */
export async function verifyDocumentOutput(format: string, path: string): Promise<void> {
  const bytes = await head(path);
  const odf = (kind: string) => expectZipMimetype(path, `application/vnd.oasis.opendocument.${kind}`);
  const flat = (kind: string) => expectText(path, ['<office:document', `application/vnd.oasis.opendocument.${kind}`], `flat ${kind} document`);
  switch (format) {
    case 'pdf':
      expectBytes(bytes, '%PDF-', 0, 'PDF');
      await runEngine({ command: 'pdfinfo', args: [path], timeoutMs: 30_000, signal: AbortSignal.timeout(30_000) });
      return;
    case 'docx':
    case 'docm':
    case 'dotx':
      return expectOoxml(path, 'word/');
    case 'xlsx':
    case 'xlsm':
    case 'xltx':
      return expectOoxml(path, 'xl/');
    case 'pptx':
    case 'pptm':
    case 'potx':
    case 'ppsx':
      return expectOoxml(path, 'ppt/');
    case 'doc':
    case 'dot':
    case 'xls':
    case 'xlt':
    case 'ppt':
    case 'pot':
      return expectBytes(bytes, OLE2, 0, 'OLE2 compound file');
    case 'odt':
      return odf('text');
    case 'ott':
      return odf('text-template');
    case 'ods':
      return odf('spreadsheet');
    case 'ots':
      return odf('spreadsheet-template');
    case 'odp':
      return odf('presentation');
    case 'otp':
      return odf('presentation-template');
    case 'odg':
      return odf('graphics');
    case 'otg':
      return odf('graphics-template');
    case 'epub':
      return expectZipMimetype(path, 'application/epub+zip');
    case 'fodt':
      return void (await flat('text'));
    case 'fods':
      return void (await flat('spreadsheet'));
    case 'fodp':
      return void (await flat('presentation'));
    case 'fodg':
      return void (await flat('graphics'));
    case 'rtf':
      return expectBytes(bytes, '{\\rtf', 0, 'RTF document');
    case 'png':
      return expectBytes(bytes, [0x89, 0x50, 0x4e, 0x47], 0, 'PNG image');
    case 'jpg':
      return expectBytes(bytes, [0xff, 0xd8, 0xff], 0, 'JPEG image');
    case 'tiff':
      if (!bytes.subarray(0, 4).equals(Buffer.from('II*\0', 'latin1')) && !bytes.subarray(0, 4).equals(Buffer.from('MM\0*', 'latin1'))) {
        throw new Error('not a TIFF image');
      }
      return;
    case 'svg':
      return void (await expectText(path, ['<svg'], 'SVG image'));
    case 'emf':
      return expectBytes(bytes, ' EMF', 40, 'EMF metafile');
    case 'wmf':
      return expectBytes(bytes, [0xd7, 0xcd, 0xc6, 0x9a], 0, 'placeable WMF metafile');
    case 'eps':
      expectBytes(bytes, '%!PS-Adobe', 0, 'EPS file');
      if (!bytes.subarray(0, 40).includes(Buffer.from('EPSF'))) throw new Error('PostScript without an EPSF header');
      return;
    case 'ps':
      return expectBytes(bytes, '%!PS', 0, 'PostScript file');
    case 'dif':
      return expectBytes(bytes, 'TABLE', 0, 'DIF spreadsheet');
    case 'slk':
      return expectBytes(bytes, 'ID;', 0, 'SYLK spreadsheet');
    case 'csv':
      return void (await expectText(path, ['alpha', ','], 'CSV file'));
    case 'html':
      return void (await expectText(path, [/<html/i], 'HTML document'));
    case 'tex':
      return void (await expectText(path, ['\\documentclass', SAMPLE_WORD], 'LaTeX document'));
    case 'dbk':
      return void (await expectText(path, ['docbook', SAMPLE_WORD], 'DocBook document'));
    case 'ipynb': {
      const notebook = JSON.parse(await readFile(path, 'utf8')) as { cells?: unknown[] };
      if (!Array.isArray(notebook.cells) || !JSON.stringify(notebook.cells).includes(SAMPLE_WORD)) throw new Error('not a notebook with the sample text');
      return;
    }
    case 'txt':
    case 'md':
    case 'rst':
    case 'org':
    case 'textile':
    case 'mediawiki':
    case 'adoc':
    case 'muse':
      return void (await expectText(path, [SAMPLE_WORD], `${format} text`));
    default:
      throw new Error(`the document proof has no check for ${format}`);
  }
}
