import { OFFICE_INPUTS } from './office-formats';

/**
 * What a document pair loses by the nature of its target, in plain words:
 * a picture holds one page, a metafile one drawing page, a CSV one sheet.
 * Shown with the pair so no loss is silent; the fidelity check holds the
 * output to the rest.
 */
const XPS = new Set(['xps', 'oxps']);
const DJVU = new Set(['djvu', 'djv']);
/** Windows metafiles, plain or gzipped (emz, wmz). */
export const METAFILES = new Set(['emf', 'wmf', 'emz', 'wmz']);

export function documentPairNote(inputFormat: string, outputFormat: string): string | undefined {
  const kind = OFFICE_INPUTS[inputFormat]?.kind;
  const page = kind === 'presentation' ? 'slide' : kind === 'spreadsheet' ? 'page of the first sheet' : 'page';
  if (['png', 'jpg', 'tiff'].includes(outputFormat)) return `only the first ${page}, as a picture`;
  if (inputFormat === 'pdf' && (outputFormat === 'svg' || outputFormat === 'eps')) return 'only the chosen page, its text drawn as outlines';
  // pdftops writes the fonts without a text mapping: no reader here gets the words back from the PostScript.
  if (inputFormat === 'pdf' && outputFormat === 'ps') return 'the text is drawn as shapes: it can no longer be searched or copied';
  if ((inputFormat === 'ps' || inputFormat === 'eps') && outputFormat === 'pdf') return 'text drawn as shapes in the PostScript stays shapes (not searchable)';
  // libgxps draws the pages; text an XPS holds as glyph outlines (as Ghostscript writes it) stays outlines.
  if (XPS.has(inputFormat) && outputFormat === 'svg') return 'only the first page, its text drawn as outlines';
  if (XPS.has(inputFormat) && (outputFormat === 'pdf' || outputFormat === 'ps')) return 'text the XPS draws as shapes stays shapes (not searchable)';
  // ddjvu renders the pages: DjVu's hidden text layer is not carried into the PDF (the txt pair keeps it).
  if (DJVU.has(inputFormat) && outputFormat === 'pdf') return 'the pages become pictures: the hidden text layer is not carried (→ txt keeps it)';
  if (outputFormat === 'emf' || outputFormat === 'wmf') return 'only the first page';
  // Draw keeps an imported metafile as one picture: it looks the same, but its text is no longer text.
  if (METAFILES.has(inputFormat) && ['odg', 'otg', 'fodg'].includes(outputFormat)) return 'the metafile is kept as one picture: its text can no longer be edited';
  if (kind === 'spreadsheet' && ['csv', 'dif', 'slk'].includes(outputFormat)) return 'only the first sheet, as values';
  return undefined;
}
