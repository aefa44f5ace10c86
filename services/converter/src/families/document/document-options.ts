import type { ConversionOption } from '@transmute/contracts';
import type { ConversionRequest } from '../family';
import { booleanOr, checkboxOption, choiceOr, integerIn, numberOption, selectOption } from '../option-builders';
import { CSV_DELIMITERS } from './office-formats';
import { NUMBERED_WRITERS, TOC_WRITERS } from './markup-formats';

const MAX_PAGE = 100_000;

export const PDF_STANDARDS = [
  ['none', 'Plain PDF'],
  ['pdfa-1b', 'PDF/A-1b'],
  ['pdfa-2b', 'PDF/A-2b'],
  ['pdfa-3b', 'PDF/A-3b'],
] as const;
type PdfStandard = (typeof PDF_STANDARDS)[number][0];
/** LibreOffice's `SelectPdfVersion` per standard. */
export const PDF_VERSION_CODE: Record<PdfStandard, number> = { none: 0, 'pdfa-1b': 1, 'pdfa-2b': 2, 'pdfa-3b': 3 };

const pageFrom = numberOption({
  name: 'page_from',
  label: 'First page',
  description: 'First page to include; empty starts at page 1.',
  group: 'pages',
  min: 1,
  max: MAX_PAGE,
});
const pageTo = numberOption({
  name: 'page_to',
  label: 'Last page',
  description: 'Last page to include; empty runs to the end.',
  group: 'pages',
  min: 1,
  max: MAX_PAGE,
});
const pdfStandard = selectOption({
  name: 'pdf_standard',
  label: 'PDF standard',
  description: 'Write an archival PDF/A file instead of a plain PDF.',
  group: 'pdf',
  values: PDF_STANDARDS,
  default: 'none',
});
const page = numberOption({ name: 'page', label: 'Page', description: 'The page to render.', group: 'pages', min: 1, max: MAX_PAGE, default: 1 });
const dpi = numberOption({
  name: 'dpi',
  type: 'range',
  label: 'Resolution (DPI)',
  description: 'Pixels per inch of the rendered page.',
  group: 'size',
  min: 36,
  max: 600,
  step: 1,
  default: 150,
});
const layout = checkboxOption({
  name: 'keep_layout',
  label: 'Keep layout',
  description: "Keep the page's physical layout (columns, spacing) instead of reading order.",
  group: 'text',
  default: false,
});
const csvDelimiter = selectOption({
  name: 'delimiter',
  label: 'Field separator',
  description: 'Character between the fields of a row.',
  group: 'csv',
  values: [
    ['comma', 'Comma'],
    ['semicolon', 'Semicolon'],
    ['tab', 'Tab'],
  ],
  default: 'comma',
});
const toc = checkboxOption({
  name: 'table_of_contents',
  label: 'Table of contents',
  description: 'Insert a table of contents built from the headings.',
  group: 'structure',
  default: false,
});
const numberSections = checkboxOption({
  name: 'number_sections',
  label: 'Number sections',
  description: 'Number the headings (1, 1.1, 1.2...).',
  group: 'structure',
  default: false,
});

/** Options of a LibreOffice pair. */
export function officeOptions(kind: string, outputFormat: string): ConversionOption[] {
  if (outputFormat === 'pdf') return [pageFrom, pageTo, pdfStandard];
  if (outputFormat === 'csv' && kind === 'spreadsheet') return [csvDelimiter];
  return [];
}

/** Options of a pandoc pair. */
export function markupOptions(outputFormat: string): ConversionOption[] {
  const options: ConversionOption[] = [];
  if (TOC_WRITERS.has(outputFormat)) options.push(toc);
  if (NUMBERED_WRITERS.has(outputFormat)) options.push(numberSections);
  if (outputFormat === 'pdf') options.push(pdfStandard);
  return options;
}

/** Options of a poppler/ghostscript pair. */
export function pdfToolOptions(inputFormat: string, outputFormat: string): ConversionOption[] {
  if (inputFormat !== 'pdf') return ['png', 'jpg'].includes(outputFormat) ? [dpi] : [];
  if (['png', 'jpg', 'tiff'].includes(outputFormat)) return [page, dpi];
  if (['svg', 'eps'].includes(outputFormat)) return [page];
  if (outputFormat === 'txt') return [pageFrom, pageTo, layout];
  if (['html', 'ps', 'docx', 'odt', 'rtf'].includes(outputFormat)) return [pageFrom, pageTo];
  return [];
}

/** Options of a DjVu / XPS pair: one page for pictures, a page range for documents and text. */
export function pageDocumentOptions(outputFormat: string): ConversionOption[] {
  if (['png', 'jpg'].includes(outputFormat)) return [page, dpi];
  if (['tiff', 'svg'].includes(outputFormat)) return [page];
  return [pageFrom, pageTo];
}

export interface DocumentSettings {
  pageFrom?: number;
  pageTo?: number;
  pdfStandard: PdfStandard;
  page: number;
  dpi: number;
  keepLayout: boolean;
  delimiter: keyof typeof CSV_DELIMITERS;
  tableOfContents: boolean;
  numberSections: boolean;
}

/** A conversion as the command-line engines (pandoc, poppler, Ghostscript) take it: the task's files and its read settings. */
export type DocumentJob = Pick<ConversionRequest, 'inputPath' | 'outputPath' | 'inputFormat' | 'outputFormat' | 'signal'> & { settings: DocumentSettings };

/** Reads a task's options; unknown or out-of-range values fall back to their defaults. */
export function documentSettings(options: Readonly<Record<string, unknown>>): DocumentSettings {
  return {
    pageFrom: integerIn(options['page_from'], 1, MAX_PAGE),
    pageTo: integerIn(options['page_to'], 1, MAX_PAGE),
    pdfStandard: choiceOr(
      options['pdf_standard'],
      PDF_STANDARDS.map(([value]) => value),
      'none',
    ),
    page: integerIn(options['page'], 1, MAX_PAGE) ?? 1,
    dpi: integerIn(options['dpi'], 36, 600) ?? 150,
    keepLayout: booleanOr(options['keep_layout'], false),
    delimiter: choiceOr(options['delimiter'], ['comma', 'semicolon', 'tab'] as const, 'comma'),
    tableOfContents: booleanOr(options['table_of_contents'], false),
    numberSections: booleanOr(options['number_sections'], false),
  };
}

/** LibreOffice's `PageRange` for the settings, or undefined for every page. */
export function pageRange(settings: DocumentSettings): string | undefined {
  if (!settings.pageFrom && !settings.pageTo) return undefined;
  return `${settings.pageFrom ?? 1}-${settings.pageTo ?? ''}`;
}
