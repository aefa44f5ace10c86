/**
 * What the warm LibreOffice pool reads and writes, by document kind. Import
 * filters are forced, so a damaged `.docx` fails instead of being opened as
 * plain text; every entry here is proven by the document matrix.
 */
export type OfficeKind = 'text' | 'spreadsheet' | 'presentation' | 'drawing';

export interface OfficeInput {
  kind: OfficeKind;
  importFilter: string;
  importOptions?: string;
  /** Outputs of its kind LibreOffice cannot write from this input, left out of its pairs (each found by the matrix). */
  notTo?: readonly string[];
}

export interface OfficeOutput {
  filter: string;
  filterOptions?: string;
}

export const OFFICE_INPUTS: Record<string, OfficeInput> = {
  doc: { kind: 'text', importFilter: 'MS Word 97' },
  docx: { kind: 'text', importFilter: 'MS Word 2007 XML' },
  docm: { kind: 'text', importFilter: 'MS Word 2007 XML VBA' },
  dot: { kind: 'text', importFilter: 'MS Word 97 Vorlage' },
  dotx: { kind: 'text', importFilter: 'MS Word 2007 XML Template' },
  odt: { kind: 'text', importFilter: 'writer8' },
  ott: { kind: 'text', importFilter: 'writer8_template' },
  fodt: { kind: 'text', importFilter: 'OpenDocument Text Flat XML' },
  rtf: { kind: 'text', importFilter: 'Rich Text Format' },
  // AbiWord (libabw): its document, gzipped document and template; OpenOffice.org 1.x Writer.
  abw: { kind: 'text', importFilter: 'AbiWord' },
  zabw: { kind: 'text', importFilter: 'AbiWord' },
  awt: { kind: 'text', importFilter: 'AbiWord' },
  sxw: { kind: 'text', importFilter: 'StarOffice XML (Writer)' },
  // Word macro-enabled template, Unified Office Format text, ODF master document and its template, T602 (Czech DOS word processor).
  dotm: { kind: 'text', importFilter: 'MS Word 2007 XML Template' },
  // LibreOffice 7.4 cannot lay out a UOF text for rendering: PDF export fails (write error 0xc10, also from the
  // command line) and PNG export draws one blank pixel.
  uot: { kind: 'text', importFilter: 'UOF text', notTo: ['pdf', 'png'] },
  // A master document saved as a template is a master template (otm), not an ott.
  odm: { kind: 'text', importFilter: 'writerglobal8', notTo: ['ott'] },
  otm: { kind: 'text', importFilter: 'writerglobal8_template', notTo: ['ott'] },
  '602': { kind: 'text', importFilter: 'T602Document' },
  txt: { kind: 'text', importFilter: 'Text (encoded)', importOptions: 'UTF8' },
  xls: { kind: 'spreadsheet', importFilter: 'MS Excel 97' },
  xlsx: { kind: 'spreadsheet', importFilter: 'Calc MS Excel 2007 XML' },
  xlsm: { kind: 'spreadsheet', importFilter: 'Calc MS Excel 2007 VBA XML' },
  xlt: { kind: 'spreadsheet', importFilter: 'MS Excel 97 Vorlage/Template' },
  xltx: { kind: 'spreadsheet', importFilter: 'Calc MS Excel 2007 XML Template' },
  ods: { kind: 'spreadsheet', importFilter: 'calc8' },
  ots: { kind: 'spreadsheet', importFilter: 'calc8_template' },
  fods: { kind: 'spreadsheet', importFilter: 'OpenDocument Spreadsheet Flat XML' },
  csv: { kind: 'spreadsheet', importFilter: 'Text - txt - csv (StarCalc)', importOptions: '44,34,76,1' },
  tsv: { kind: 'spreadsheet', importFilter: 'Text - txt - csv (StarCalc)', importOptions: '9,34,76,1' },
  dif: { kind: 'spreadsheet', importFilter: 'DIF' },
  slk: { kind: 'spreadsheet', importFilter: 'SYLK' },
  uos: { kind: 'spreadsheet', importFilter: 'UOF spreadsheet' },
  xltm: { kind: 'spreadsheet', importFilter: 'Calc MS Excel 2007 XML Template' },
  // Gnumeric's gzipped XML.
  gnumeric: { kind: 'spreadsheet', importFilter: 'Gnumeric Spreadsheet' },
  ppt: { kind: 'presentation', importFilter: 'MS PowerPoint 97' },
  pptx: { kind: 'presentation', importFilter: 'Impress MS PowerPoint 2007 XML' },
  pptm: { kind: 'presentation', importFilter: 'Impress MS PowerPoint 2007 XML VBA' },
  pot: { kind: 'presentation', importFilter: 'MS PowerPoint 97 Vorlage' },
  potx: { kind: 'presentation', importFilter: 'Impress MS PowerPoint 2007 XML Template' },
  ppsx: { kind: 'presentation', importFilter: 'Impress MS PowerPoint 2007 XML AutoPlay' },
  odp: { kind: 'presentation', importFilter: 'impress8' },
  otp: { kind: 'presentation', importFilter: 'impress8_template' },
  fodp: { kind: 'presentation', importFilter: 'OpenDocument Presentation Flat XML' },
  uop: { kind: 'presentation', importFilter: 'UOF presentation' },
  // PowerPoint 97 show and macro-enabled template.
  pps: { kind: 'presentation', importFilter: 'MS PowerPoint 97 AutoPlay' },
  potm: { kind: 'presentation', importFilter: 'Impress MS PowerPoint 2007 XML Template' },
  odg: { kind: 'drawing', importFilter: 'draw8' },
  otg: { kind: 'drawing', importFilter: 'draw8_template' },
  fodg: { kind: 'drawing', importFilter: 'OpenDocument Drawing Flat XML' },
  emf: { kind: 'drawing', importFilter: 'EMF - MS Windows Metafile' },
  wmf: { kind: 'drawing', importFilter: 'WMF - MS Windows Metafile' },
  // Gzipped metafiles, as Office embeds them.
  emz: { kind: 'drawing', importFilter: 'EMF - MS Windows Metafile' },
  wmz: { kind: 'drawing', importFilter: 'WMF - MS Windows Metafile' },
};

/** PDF opened by LibreOffice Draw (for pdf → odg); the other PDF routes use poppler. */
export const OFFICE_PDF_IMPORT: OfficeInput = { kind: 'drawing', importFilter: 'draw_pdf_import' };

export const OFFICE_OUTPUTS: Record<OfficeKind, Record<string, OfficeOutput>> = {
  text: {
    pdf: { filter: 'writer_pdf_Export' },
    docx: { filter: 'MS Word 2007 XML' },
    doc: { filter: 'MS Word 97' },
    odt: { filter: 'writer8' },
    rtf: { filter: 'Rich Text Format' },
    txt: { filter: 'Text (encoded)', filterOptions: 'UTF8' },
    html: { filter: 'HTML (StarWriter)' },
    fodt: { filter: 'OpenDocument Text Flat XML' },
    ott: { filter: 'writer8_template' },
    dotx: { filter: 'MS Word 2007 XML Template' },
    dot: { filter: 'MS Word 97 Vorlage' },
    docm: { filter: 'MS Word 2007 XML VBA' },
    png: { filter: 'writer_png_Export' },
  },
  spreadsheet: {
    pdf: { filter: 'calc_pdf_Export' },
    xlsx: { filter: 'Calc MS Excel 2007 XML' },
    xls: { filter: 'MS Excel 97' },
    ods: { filter: 'calc8' },
    csv: { filter: 'Text - txt - csv (StarCalc)' },
    html: { filter: 'HTML (StarCalc)' },
    fods: { filter: 'OpenDocument Spreadsheet Flat XML' },
    ots: { filter: 'calc8_template' },
    xltx: { filter: 'Calc MS Excel 2007 XML Template' },
    xlt: { filter: 'MS Excel 97 Vorlage/Template' },
    xlsm: { filter: 'Calc MS Excel 2007 VBA XML' },
    dif: { filter: 'DIF' },
    slk: { filter: 'SYLK' },
    png: { filter: 'calc_png_Export' },
  },
  presentation: {
    pdf: { filter: 'impress_pdf_Export' },
    pptx: { filter: 'Impress MS PowerPoint 2007 XML' },
    ppt: { filter: 'MS PowerPoint 97' },
    odp: { filter: 'impress8' },
    fodp: { filter: 'OpenDocument Presentation Flat XML' },
    otp: { filter: 'impress8_template' },
    potx: { filter: 'Impress MS PowerPoint 2007 XML Template' },
    pot: { filter: 'MS PowerPoint 97 Vorlage' },
    ppsx: { filter: 'Impress MS PowerPoint 2007 XML AutoPlay' },
    pptm: { filter: 'Impress MS PowerPoint 2007 XML VBA' },
    png: { filter: 'impress_png_Export' },
    jpg: { filter: 'impress_jpg_Export' },
    svg: { filter: 'impress_svg_Export' },
  },
  drawing: {
    pdf: { filter: 'draw_pdf_Export' },
    odg: { filter: 'draw8' },
    fodg: { filter: 'OpenDocument Drawing Flat XML' },
    otg: { filter: 'draw8_template' },
    png: { filter: 'draw_png_Export' },
    jpg: { filter: 'draw_jpg_Export' },
    svg: { filter: 'draw_svg_Export' },
    emf: { filter: 'draw_emf_Export' },
    wmf: { filter: 'draw_wmf_Export' },
  },
};

/** Field separators the csv output offers, as LibreOffice's filter option token (a character code). */
export const CSV_DELIMITERS: Record<string, number> = { comma: 44, semicolon: 59, tab: 9 };
