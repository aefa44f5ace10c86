/**
 * What every document sample says, so a check knows what to look for: three
 * pages (or slides) of distinctive words, and a small table of cells. The
 * samples of every format are written from these (document.proof.ts).
 */
export const PAGES: readonly (readonly string[])[] = [
  ['Transmute', 'alpha', 'bravo', 'charlie', 'delta', 'echo'],
  ['Second', 'foxtrot', 'golf', 'hotel', 'india', 'juliett'],
  ['Third', 'kilo', 'lima', 'mike', 'november', 'oscar'],
];

/** Heading and sentence of each page. */
export const pageHeading = (page: readonly string[]) => `${page[0]} ${page[1]}`;
export const pageSentence = (page: readonly string[]) => `${capitalise(page[2]!)} ${page.slice(3).join(' ')}.`;
const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

export const CELLS: readonly (readonly string[])[] = [
  ['name', 'count', 'city'],
  ['alpha', '1', 'oslo'],
  ['bravo', '2', 'lima'],
  ['charlie', '3', 'quito'],
];

/** Every page's words, lower case, in reading order. */
export const pageWords = (pages: readonly (readonly string[])[] = PAGES) => pages.flat().map((word) => word.toLowerCase());
export const cellWords = () => CELLS.flat().map((word) => word.toLowerCase());

export const MARKDOWN = PAGES.map((page) => `# ${pageHeading(page)}\n\n${pageSentence(page)}\n`).join('\n');
/** HTML with a page break before each page after the first: LibreOffice Writer imports it as three pages. */
export const PAGED_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Transmute alpha</title></head><body>
${PAGES.map((page, i) => `<h1${i > 0 ? ' style="page-break-before: always"' : ''}>${pageHeading(page)}</h1>\n<p>${pageSentence(page)}</p>`).join('\n')}
</body></html>
`;
export const TEXT = PAGES.map((page) => `${pageHeading(page)}\n\n${pageSentence(page)}\n`).join('\n');
/** pandoc reads txt2tags and creole but cannot write them: the same pages in their syntax. */
export const T2T = `Transmute sample\n\n\n${PAGES.map((page) => `= ${pageHeading(page)} =\n\n${pageSentence(page)}\n`).join('\n')}`;
export const CREOLE = PAGES.map((page) => `= ${pageHeading(page)} =\n\n${pageSentence(page)}\n`).join('\n');
export const CSV = `${CELLS.map((row) => row.join(',')).join('\n')}\n`;
export const TSV = `${CELLS.map((row) => row.join('\t')).join('\n')}\n`;
