import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { type ContentCheck, Findings } from '../../matrix/fidelity/findings';
import type { OptionCheck } from '../../matrix/fidelity/option-checks';
import { toolsPython } from '../../matrix/fidelity/tools-python';
import { describeWordOrder, wordsInOrder, wordsOf } from '../../matrix/fidelity/words';
import { type DocumentReading, readDocument } from '../document/document-readers';
import { COMIC_INPUTS } from './ebook-options';
import { COMIC_WITHDRAWN, EBOOK_ONLY_INPUTS, SHARED_INPUTS, SNB_WITHDRAWN, UNSTYLED_OUTPUTS } from './ebook-formats';
import type { NarrowedOption, WithdrawnPair } from '../../matrix/family-proof';
import { BOOK_TITLE, CHAPTERS } from './ebook.proof';

/** What a reader finds in a book: its text, its title (metadata, or the text where the format has no metadata) and its pictures. */
export interface BookReading {
  reader: string;
  text: string;
  title?: string;
  images?: number;
}

const TIMEOUT_MS = 300_000;
const CALIBRE_ENV = { QTWEBENGINE_DISABLE_SANDBOX: '1', QTWEBENGINE_CHROMIUM_FLAGS: '--disable-gpu' };
const run = (command: string, args: string[], signal: AbortSignal, extra: { env?: Record<string, string>; memoryLimitMb?: number } = {}) =>
  runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal, ...extra });

/** Zip books other than EPUB read through Python's zipfile: every entry's text (markup removed), the OPF title, the pictures counted. */
const ZIP_BOOK_READER = `
import json, re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    names = z.namelist()
    texts, title = [], ''
    for name in names:
        lower = name.lower()
        if lower.endswith(('.html', '.xhtml', '.htm', '.txt', '.pml', '.xml')) and 'container.xml' not in lower:
            data = z.read(name).decode('utf-8', 'replace')
            data = re.sub(r'(?s)<head.*?</head>', ' ', data)
            texts.append(re.sub(r'<[^>]+>|\\\\[a-zA-Z](?:="[^"]*")?', ' ', data))
        if lower.endswith('.opf'):
            found = re.search(r'<dc:title[^>]*>([^<]*)<', z.read(name).decode('utf-8', 'replace'))
            title = found.group(1) if found else title
    images = [n for n in names if n.lower().endswith(('.png', '.jpg', '.jpeg', '.gif')) and 'cover' not in n.lower()]
    print(json.dumps({'text': ' '.join(texts), 'title': title, 'images': len(images)}))
`;

/**
 * Reads a book output with a reader other than calibre where one exists:
 * Python's zipfile for EPUB, HTMLZ, TXTZ and PMLZ, pandoc for FB2, the
 * document readers (poppler, OOXML, pandoc) for PDF, DOCX, RTF and text.
 * MOBI, AZW3, LIT, LRF, PDB, RB, SNB and TCR only calibre reads here: it
 * converts them back to text, and the report says so.
 */
export async function readBook(path: string, format: string, dir: string, signal: AbortSignal): Promise<BookReading> {
  switch (format) {
    case 'epub': {
      // In spine order: the zip's entry order is not the reading order.
      const reading = (await readDocument(path, 'epub', signal, dir)) as DocumentReading & { title?: string };
      const names = (await run('bsdtar', ['-tf', path], signal)).stdout.split('\n');
      const images = names.filter((name) => /\.(png|jpe?g|gif)$/i.test(name) && !/cover/i.test(name)).length;
      return { reader: reading.reader, text: reading.text, title: reading.title, images };
    }
    case 'htmlz':
    case 'txtz':
    case 'pmlz': {
      const script = join(dir, 'read-zip-book.py');
      await writeFile(script, ZIP_BOOK_READER);
      const { stdout } = await run(await toolsPython(), [script, path], signal, { memoryLimitMb: 0 });
      return { reader: "the book's zip entries", ...(JSON.parse(stdout) as { text: string; title: string; images: number }) };
    }
    case 'fb2': {
      const xml = await readFile(path, 'utf8');
      const { stdout } = await run('pandoc', ['--from', 'fb2', '--to', 'plain', path], signal);
      return { reader: 'pandoc', text: stdout, title: /<book-title>([^<]*)</.exec(xml)?.[1], images: (xml.match(/<binary\b/g) ?? []).length };
    }
    case 'pdf': {
      const reading = await readDocument(path, 'pdf', signal, dir);
      const info = (await run('pdfinfo', [path], signal)).stdout;
      return { reader: reading.reader, text: reading.text, title: /^Title:\s+(.*)$/m.exec(info)?.[1], images: reading.pages?.length };
    }
    case 'docx': {
      const reading = await readDocument(path, 'docx', signal, dir);
      const core = (await run('bsdtar', ['-xOf', path, 'docProps/core.xml'], signal).catch(() => ({ stdout: '' }))).stdout;
      const media = (await run('bsdtar', ['-tf', path], signal)).stdout.split('\n').filter((name) => name.startsWith('word/media/')).length;
      return { reader: reading.reader, text: reading.text, title: /<dc:title>([^<]*)</.exec(core)?.[1], images: media };
    }
    case 'rtf': {
      const reading = await readDocument(path, 'rtf', signal, dir);
      const raw = await readFile(path, 'latin1');
      return { reader: reading.reader, text: reading.text, title: /\{\\title ([^}]*)\}/.exec(raw)?.[1], images: (raw.match(/\\pict\b/g) ?? []).length };
    }
    case 'txt':
      return { reader: 'the text itself', text: await readFile(path, 'utf8') };
    default: {
      // Only calibre reads these: it converts the output back to an EPUB, whose text and OPF title are read as above.
      const epub = join(dir, 'readback.epub');
      await run('ebook-convert', [path, epub], signal, { env: { ...CALIBRE_ENV, HOME: dir, CALIBRE_CONFIG_DIRECTORY: join(dir, 'config') }, memoryLimitMb: 0 });
      const reading = await readBook(epub, 'epub', dir, signal);
      return { ...reading, reader: 'calibre, back to EPUB (no other reader of this format here)' };
    }
  }
}

const chapterWords = () => CHAPTERS.flat().map((word) => word.toLowerCase());

/**
 * The ebook family's content check: the chapters' words in order and the
 * title (as metadata, or in the text for plain text); for a comic, its
 * pages (pictures) kept.
 */
export function ebookContentCheck(): ContentCheck {
  return async (pair, _source, outputPath, signal) => {
    const findings = new Findings();
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      let book: BookReading | undefined;
      await findings.attempt('read', async () => {
        book = await readBook(outputPath, pair.outputFormat, scratch, signal);
      });
      if (!book) return findings.list;
      findings.expect('reader', true, book.reader);
      if (COMIC_INPUTS.has(pair.inputFormat)) {
        const pictures = book.images ?? 0;
        findings.expect('pages', pictures >= 2, `${pictures} page pictures found; the comic has 2`);
        return findings.list;
      }
      const order = wordsInOrder(chapterWords(), book.text);
      findings.expect('chapter text', order.found === order.expected, describeWordOrder(order));
      // Inputs without metadata (plain text) have no title to keep.
      if (pair.inputFormat !== 'txt') {
        // The title survives as metadata, or as the book's first words where a format (or a source) keeps it only there.
        const title = wordsOf(BOOK_TITLE);
        const inMetadata = wordsInOrder(title, book.title ?? '').found === title.length;
        const inText = wordsInOrder(title, book.text).found === title.length;
        findings.expect('title', inMetadata || inText, `metadata title "${book.title ?? ''}"${inText ? ', and in the text' : ', not in the text'}; expected "${BOOK_TITLE}"`);
      }
      return findings.list;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

/**
 * What styling a book output carries, for the style options: the CSS of
 * zip books, the first words' boxes and page size of a PDF, the bytes of
 * anything else (where identical bytes prove the option did nothing).
 */
async function styleSignature(path: string, format: string, dir: string, signal: AbortSignal): Promise<string> {
  if (['epub', 'htmlz', 'txtz', 'pmlz', 'docx'].includes(format)) {
    const { stdout: names } = await run('bsdtar', ['-tf', path], signal);
    const styled = names.split('\n').filter((name) => /\.css$|styles\.xml$|document\.xml$/.test(name));
    const parts = await Promise.all(styled.map(async (name) => (await run('bsdtar', ['-xOf', path, name], signal)).stdout));
    return parts.join('\n').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '');
  }
  if (format === 'pdf') {
    const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', path, '-'], signal);
    const info = (await run('pdfinfo', [path], signal)).stdout;
    return `${/Page size:.*/.exec(info)?.[0]}\n${(stdout.match(/<word [^>]*>/g) ?? []).slice(0, 5).join('\n')}`;
  }
  void dir;
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

const styleCheck = (option: string, promise: string, runs: OptionCheck['runs']): OptionCheck => ({
  option,
  promise,
  inputs: ['epub'],
  runs,
  async verify(check) {
    const findings = new Findings();
    const [first, second] = [
      await styleSignature(check.first, check.pair.outputFormat, check.scratch, check.signal),
      await styleSignature(check.second, check.pair.outputFormat, check.scratch, check.signal),
    ];
    findings.expect(
      'styling changes',
      first !== second,
      first === second ? 'both results carry the same styling (or the same bytes)' : 'the styling differs between the two results',
    );
    return findings.list;
  },
});

/** Pairs taken out of the ebook family, and why. */
export const EBOOK_WITHDRAWN: WithdrawnPair[] = [
  ...[...EBOOK_ONLY_INPUTS, ...SHARED_INPUTS].map((inputFormat) => ({ inputFormat, outputFormat: 'snb', reason: SNB_WITHDRAWN })),
  ...COMIC_WITHDRAWN.map((outputFormat) => ({ inputFormat: 'cbz', outputFormat, reason: 'a comic is page pictures: this target kept none of them (PMLZ one of two)' })),
];

/** Options taken off outputs where they measured no change. */
export const EBOOK_NARROWED: NarrowedOption[] = ['output_profile', 'base_font_size', 'margin'].flatMap((option) =>
  [...UNSTYLED_OUTPUTS].map((output) => ({ option, where: `${output} outputs`, reason: 'a text-only target carries no styling: the same result whatever was asked' })),
);

export const EBOOK_OPTION_CHECKS: OptionCheck[] = [
  styleCheck('output_profile', 'the styling follows the chosen device', [{ output_profile: 'default' }, { output_profile: 'kindle' }]),
  styleCheck('base_font_size', 'the text is set at that size', [{}, { base_font_size: 30 }]),
  styleCheck('margin', 'the pages get those margins', [{ margin: 5 }, { margin: 60 }]),
  {
    option: 'default_cover',
    promise: 'a cover is made only when asked',
    inputs: ['epub'],
    runs: [{ default_cover: true }, { default_cover: false }],
    async verify(check) {
      const findings = new Findings();
      const covers = async (path: string) => (await run('bsdtar', ['-tf', path], check.signal)).stdout.split('\n').filter((name) => /cover.*\.(jpe?g|png)$/i.test(name)).length;
      const [made, none] = [await covers(check.first), await covers(check.second)];
      findings.expect('cover', made > 0 && none === 0, `cover pictures with default_cover: ${made}; without: ${none}`);
      return findings.list;
    },
  },
  {
    option: 'paper_size',
    promise: 'the PDF pages have that size',
    inputs: ['epub'],
    runs: [{ paper_size: 'a4' }, { paper_size: 'letter' }],
    async verify(check) {
      const findings = new Findings();
      const size = async (path: string) =>
        /Page size:\s+([\d.]+) x ([\d.]+)/
          .exec((await run('pdfinfo', [path], check.signal)).stdout)
          ?.slice(1, 3)
          .map((value) => Math.round(Number(value)))
          .join('x');
      const [a4, letter] = [await size(check.first), await size(check.second)];
      findings.expect('page size', a4 === '595x842' && letter === '612x792', `a4: ${a4} pt, letter: ${letter} pt`);
      return findings.list;
    },
  },
];
