import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { toolsPython } from '../../matrix/fidelity/tools-python';

/**
 * Readers of document outputs that are not LibreOffice (which writes most of
 * them): poppler for PDF, pandoc for Word, OpenDocument and RTF text, catdoc
 * for Word/Excel/PowerPoint 97, openpyxl for Excel 2007+, the XML of
 * OpenDocument and OOXML packages for slides and cells, the text itself for
 * markup. Test-side code: the family never uses these.
 */
export interface DocumentReading {
  reader: string;
  /** All the text, in reading order. */
  text: string;
  /** Text per page or slide, where the format has pages. */
  pages?: string[];
  /** Cells of the first sheet or table, row by row, where the format holds a table. */
  cells?: string[][];
}

const TIMEOUT_MS = 120_000;

/** Python readers of zip/XML packages: OOXML slides and text, OpenDocument pages, text and cells, EPUB spine text. */
const PACKAGE_READER = `
import json, re, sys, zipfile
import xml.etree.ElementTree as ET
path, kind = sys.argv[1], sys.argv[2]
NS = {
  'office': 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  'table': 'urn:oasis:names:tc:opendocument:xmlns:table:1.0',
  'draw': 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0',
  'text': 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
  'a': 'http://schemas.openxmlformats.org/drawingml/2006/main',
  'p': 'http://schemas.openxmlformats.org/presentationml/2006/main',
  'r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'w': 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
}
def text_of(node):
    return ' '.join(t.strip() for t in node.itertext() if t.strip())
def odf_root():
    if kind == 'flat':
        return ET.parse(path).getroot()
    with zipfile.ZipFile(path) as z:
        return ET.fromstring(z.read('content.xml'))
out = {}
if kind in ('odf', 'flat'):
    root = odf_root()
    body = root.find('office:body', NS)
    out['text'] = text_of(body)
    pages = body.findall('.//draw:page', NS)
    if pages:
        out['pages'] = [text_of(page) for page in pages]
    table = body.find('.//table:table', NS)
    if table is not None and body.find('office:spreadsheet', NS) is not None:
        rows = []
        for row in table.iter('{%s}table-row' % NS['table']):
            cells = []
            for cell in row:
                if not cell.tag.endswith('table-cell'):
                    continue
                repeat = int(cell.get('{%s}number-columns-repeated' % NS['table'], '1'))
                cells.extend([text_of(cell)] * min(repeat, 50))
            while cells and cells[-1] == '':
                cells.pop()
            if cells:
                rows.append(cells)
        out['cells'] = rows
elif kind == 'pptx':
    with zipfile.ZipFile(path) as z:
        pres = ET.fromstring(z.read('ppt/presentation.xml'))
        rels = ET.fromstring(z.read('ppt/_rels/presentation.xml.rels'))
        target = {rel.get('Id'): rel.get('Target') for rel in rels}
        pages = []
        for sld in pres.find('p:sldIdLst', NS) or []:
            part = 'ppt/' + target[sld.get('{%s}id' % NS['r'])]
            slide = ET.fromstring(z.read(part))
            pages.append(' '.join(t.text or '' for t in slide.iter('{%s}t' % NS['a'])))
        out['pages'] = pages
        out['text'] = ' '.join(pages)
elif kind == 'docx':
    with zipfile.ZipFile(path) as z:
        doc = ET.fromstring(z.read('word/document.xml'))
    paragraphs = [' '.join(t.text or '' for t in p.iter('{%s}t' % NS['w'])) for p in doc.iter('{%s}p' % NS['w'])]
    out['text'] = '\\n'.join(paragraphs)
elif kind == 'xlsx':
    import openpyxl
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    sheet = book.worksheets[0]
    rows = []
    for row in sheet.iter_rows(values_only=True):
        cells = ['' if v is None else (str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)) for v in row]
        while cells and cells[-1] == '':
            cells.pop()
        if cells:
            rows.append(cells)
    out['cells'] = rows
    out['text'] = ' '.join(' '.join(row) for row in rows)
elif kind == 'epub':
    with zipfile.ZipFile(path) as z:
        container = ET.fromstring(z.read('META-INF/container.xml'))
        opf_path = next(el.get('full-path') for el in container.iter() if el.tag.endswith('rootfile'))
        opf = ET.fromstring(z.read(opf_path))
        base = opf_path.rsplit('/', 1)[0] + '/' if '/' in opf_path else ''
        items = {el.get('id'): el.get('href') for el in opf.iter() if el.tag.endswith('}item')}
        texts = []
        for ref in (el for el in opf.iter() if el.tag.endswith('itemref')):
            html = z.read(base + items[ref.get('idref')]).decode('utf-8', 'replace')
            texts.append(re.sub(r'<[^>]+>', ' ', re.sub(r'(?s)<head.*?</head>', ' ', html)))
        out['text'] = ' '.join(texts)
        titles = [el.text for el in opf.iter() if el.tag.endswith('}title')]
        out['title'] = titles[0] if titles else ''
print(json.dumps(out))
`;

async function python(kind: string, path: string, dir: string, signal: AbortSignal): Promise<DocumentReading & { title?: string }> {
  const script = join(dir, 'read-package.py');
  await writeFile(script, PACKAGE_READER);
  const { stdout } = await runEngine({ command: await toolsPython(), args: [script, path, kind], timeoutMs: TIMEOUT_MS, signal, memoryLimitMb: 0 });
  return JSON.parse(stdout) as DocumentReading;
}

const run = (command: string, args: string[], signal: AbortSignal, extra: { stdoutFile?: string } = {}) => runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal, ...extra });

/** Text of an HTML or XML file: markup, head, scripts and styles removed, entities decoded. */
export function textOfMarkup(markup: string): string {
  return markup
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** PDF: pdftotext page by page (poppler); `layout` keeps a table's rows together instead of reading it column by column. */
export async function readPdf(path: string, signal: AbortSignal, layout = false): Promise<DocumentReading> {
  const { stdout } = await run('pdfinfo', [path], signal);
  const count = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  const pages: string[] = [];
  for (let page = 1; page <= count; page += 1)
    pages.push((await run('pdftotext', ['-f', String(page), '-l', String(page), ...(layout ? ['-layout'] : []), '-enc', 'UTF-8', path, '-'], signal)).stdout);
  return { reader: `poppler (pdftotext${layout ? ' -layout' : ''})`, text: pages.join('\n'), pages };
}

/** PostScript: Ghostscript turns it into PDF, then poppler reads it; pages are counted by Ghostscript's bbox device. */
async function readPostScript(path: string, dir: string, signal: AbortSignal, eps: boolean): Promise<DocumentReading> {
  const pdf = join(dir, 'from-ps.pdf');
  await run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', ...(eps ? ['-dEPSCrop'] : []), `-sOutputFile=${pdf}`, path], signal);
  const reading = await readPdf(pdf, signal);
  return { ...reading, reader: 'Ghostscript to PDF, then poppler (pdftotext)' };
}

/** Spreadsheet text formats the family writes: CSV, DIF, SYLK. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  // xls2csv ends each sheet with a form feed: a row of white space is no row.
  return rows.filter((cells) => cells.some((value) => value.trim() !== ''));
}

export function parseDif(text: string): string[][] {
  const lines = text.split(/\r?\n/);
  const data = lines.indexOf('DATA');
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (let i = data + 1; i >= 1 && i < lines.length - 1; i += 2) {
    const [type, number] = lines[i]!.split(',');
    const value = lines[i + 1]!;
    if (type === '-1' && value === 'BOT') rows.push((row = []));
    else if (type === '-1' && value === 'EOD') break;
    else if (type === '0') row?.push(String(Number(number)));
    else if (type === '1') row?.push(value.replace(/^"|"$/g, ''));
  }
  return rows.filter((cells) => cells.length > 0);
}

export function parseSylk(text: string): string[][] {
  const rows: string[][] = [];
  let y = 0;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('C;')) continue;
    const fields = line.split(';');
    const yField = fields.find((field) => field.startsWith('Y'));
    if (yField) y = Number(yField.slice(1));
    const x = Number(fields.find((field) => field.startsWith('X'))?.slice(1));
    const k = fields.find((field) => field.startsWith('K'));
    if (!x || !y || k === undefined) continue;
    (rows[y - 1] ??= [])[x - 1] = k.slice(1).replace(/^"|"$/g, '');
  }
  return rows.filter(Boolean).map((row) => Array.from(row, (value) => value ?? ''));
}

/** Text runs of a metafile: UTF-16 (EMF's EXTTEXTOUTW) and 8-bit (WMF's EXTTEXTOUT) strings of letters. */
export function metafileText(bytes: Buffer): string {
  const wide = bytes.toString('utf16le').match(/[\p{L}\p{N} .,]{3,}/gu) ?? [];
  const narrow = bytes.toString('latin1').match(/[A-Za-z0-9 .,]{3,}/g) ?? [];
  return [...wide, ...narrow].join(' ');
}

/** Reads a document output with a reader other than the engine that wrote it. */
export async function readDocument(path: string, format: string, signal: AbortSignal, dir?: string, options: { table?: boolean } = {}): Promise<DocumentReading> {
  const scratch = dir ?? (await mkdtemp(join(path, '..', 'read-')));
  const text = async () => readFile(path, 'utf8');
  switch (format) {
    case 'pdf':
      return readPdf(path, signal, options.table);
    case 'ps':
    case 'eps':
      return readPostScript(path, scratch, signal, format === 'eps');
    case 'docx':
    case 'docm':
    case 'dotx':
      return { ...(await python('docx', path, scratch, signal)), reader: 'the OOXML text (word/document.xml)' };
    case 'rtf':
      return { reader: 'pandoc', text: (await run('pandoc', ['--from', 'rtf', '--to', 'plain', path], signal)).stdout };
    case 'odt':
    case 'ott':
      // pandoc's ODT reader misses text inside sections (a notebook's cells): the XML is read instead.
      return { ...(await python('odf', path, scratch, signal)), reader: 'the OpenDocument XML (content.xml)' };
    case 'epub':
      return { ...(await python('epub', path, scratch, signal)), reader: 'the EPUB spine (XHTML)' };
    case 'odp':
    case 'otp':
    case 'odg':
    case 'otg':
    case 'ods':
    case 'ots':
      return { ...(await python('odf', path, scratch, signal)), reader: 'the OpenDocument XML (content.xml)' };
    case 'fodt':
    case 'fods':
    case 'fodp':
    case 'fodg':
      return { ...(await python('flat', path, scratch, signal)), reader: 'the flat OpenDocument XML' };
    case 'pptx':
    case 'pptm':
    case 'potx':
    case 'ppsx':
      return { ...(await python('pptx', path, scratch, signal)), reader: 'the OOXML slides (ppt/slides)' };
    case 'xlsx':
    case 'xlsm':
    case 'xltx':
      return { ...(await python('xlsx', path, scratch, signal)), reader: 'openpyxl' };
    case 'doc':
    case 'dot':
      return { reader: 'catdoc', text: (await run('catdoc', ['-w', '-d', 'utf-8', path], signal)).stdout };
    case 'xls':
    case 'xlt': {
      const csv = (await run('xls2csv', ['-d', 'utf-8', '-c', ',', '-q', '1', path], signal)).stdout;
      const cells = parseCsv(csv);
      return { reader: 'xls2csv (catdoc)', text: csv, cells };
    }
    case 'ppt':
    case 'pot':
      // catppt finds nothing in LibreOffice's PowerPoint 97 files: the text atoms are read from the records instead.
      return { reader: 'the text atoms of the PowerPoint records', text: metafileText(await readFile(path)) };
    case 'csv': {
      const content = await text();
      const delimiter = [',', ';', '\t'].sort((a, b) => content.split(b).length - content.split(a).length)[0]!;
      return { reader: 'the CSV text', text: content, cells: parseCsv(content, delimiter) };
    }
    case 'dif': {
      const content = await text();
      return { reader: 'the DIF text', text: content, cells: parseDif(content) };
    }
    case 'slk': {
      const content = await text();
      return { reader: 'the SYLK text', text: content, cells: parseSylk(content) };
    }
    case 'html':
    case 'htm':
    case 'xhtml':
    case 'dbk':
    case 'opml':
    case 'svg':
      return { reader: 'the markup, tags removed', text: textOfMarkup(await text()) };
    case 'ipynb': {
      const notebook = JSON.parse(await text()) as { cells?: { source?: string | string[] }[] };
      return {
        reader: 'the notebook JSON (cell sources)',
        text: (notebook.cells ?? []).map((cell) => (Array.isArray(cell.source) ? cell.source.join('') : (cell.source ?? ''))).join('\n'),
      };
    }
    case 'emf':
    case 'wmf':
      return { reader: 'the text records of the metafile', text: metafileText(await readFile(path)) };
    case 'txt':
    case 'md':
    case 'rst':
    case 'tex':
    case 'org':
    case 'textile':
    case 'mediawiki':
    case 'adoc':
    case 'muse':
      return { reader: 'the text itself', text: await text() };
    default:
      throw new Error(`no text reader for ${format} documents`);
  }
}
