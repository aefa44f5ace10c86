/** Markup formats pandoc converts, by extension: the reader and writer names pandoc 2.17 knows. */
export const MARKUP_READERS: Record<string, string> = {
  md: 'markdown',
  markdown: 'markdown',
  rst: 'rst',
  tex: 'latex',
  latex: 'latex',
  ltx: 'latex',
  org: 'org',
  textile: 'textile',
  mediawiki: 'mediawiki',
  wiki: 'mediawiki',
  dbk: 'docbook',
  opml: 'opml',
  muse: 'muse',
  t2t: 't2t',
  ipynb: 'ipynb',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  man: 'man',
  creole: 'creole',
};

/**
 * Writers, by output extension. `standalone` writers get a full document
 * (head, preamble) rather than a fragment. PDF and EPUB are not here; see
 * MARKUP_VIA_OFFICE.
 */
export const MARKUP_WRITERS: Record<string, { writer: string; standalone: boolean }> = {
  html: { writer: 'html5', standalone: true },
  md: { writer: 'markdown', standalone: false },
  rst: { writer: 'rst', standalone: false },
  tex: { writer: 'latex', standalone: true },
  org: { writer: 'org', standalone: false },
  textile: { writer: 'textile', standalone: false },
  mediawiki: { writer: 'mediawiki', standalone: false },
  adoc: { writer: 'asciidoc', standalone: false },
  dbk: { writer: 'docbook5', standalone: true },
  txt: { writer: 'plain', standalone: false },
  docx: { writer: 'docx', standalone: true },
  odt: { writer: 'odt', standalone: true },
  rtf: { writer: 'rtf', standalone: true },
  ipynb: { writer: 'ipynb', standalone: true },
  muse: { writer: 'muse', standalone: false },
};

/**
 * Writers that honour a table of contents. Not org or AsciiDoc (pandoc 2.17's writers ignore --toc),
 * nor EPUB (LibreOffice's EPUB export leaves the filled index out; the book's own navigation lists the
 * chapters anyway), as the option check found.
 */
export const TOC_WRITERS = new Set(['html', 'md', 'rst', 'tex', 'docx', 'odt', 'rtf', 'txt', 'pdf']);
/**
 * Writers that number sections. Not ODT, nor PDF and EPUB (written from ODT): pandoc 2.17's ODT
 * writer ignores --number-sections, as the option check found (no number in the result).
 */
/** What the option checks found, for the report: options taken off outputs where they did nothing. */
export const MARKUP_NARROWED = [
  ...['org', 'adoc'].map((output) => ({
    option: 'table_of_contents',
    where: `${output} outputs`,
    reason: "pandoc 2.17's org and AsciiDoc writers ignore --toc: no table in the result",
  })),
  { option: 'table_of_contents', where: 'epub outputs', reason: "LibreOffice's EPUB export leaves the filled table out; the book's navigation lists the chapters anyway" },
  ...['odt', 'pdf', 'epub'].map((output) => ({
    option: 'number_sections',
    where: `${output} outputs`,
    reason: "pandoc 2.17's ODT writer (which PDF and EPUB go through) ignores --number-sections",
  })),
];

export const NUMBERED_WRITERS = new Set(['html', 'tex', 'docx']);

/**
 * Outputs written by pandoc → ODT → the warm LibreOffice, by LibreOffice's
 * export filter: pandoc has no PDF engine on Debian without TeX, and its EPUB
 * writer cannot find its own stylesheet under `--sandbox` (pandoc 2.17), which
 * we keep on so an input cannot pull the converter's local files into the result.
 */
export const MARKUP_VIA_OFFICE: Record<string, string> = { pdf: 'writer_pdf_Export', epub: 'EPUB' };
