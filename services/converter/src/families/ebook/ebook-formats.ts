/**
 * What calibre's `ebook-convert` reads and writes here, by extension. Inputs
 * the document family also reads (docx, odt, rtf, txt, pdf) are listed only
 * towards e-book outputs, so each pair has one owner. SNB is neither read nor
 * written: calibre 6.13 cannot read the SNB it writes (IndexError), so no
 * reader here can prove an SNB output's content and the pairs were withdrawn.
 */
export const EBOOK_ONLY_INPUTS = [
  'epub',
  'mobi',
  'azw',
  'azw3',
  'prc',
  'fb2',
  'lit',
  'lrf',
  'pdb',
  'pmlz',
  'rb',
  'tcr',
  'txtz',
  'htmlz',
  'cbz',
  'cb7',
  'cbc',
  'fbz',
  'pml',
] as const;
export const SHARED_INPUTS = ['docx', 'odt', 'rtf', 'txt', 'pdf'] as const;

/** E-book outputs: what every input may reach. */
export const EBOOK_OUTPUTS = ['epub', 'mobi', 'azw3', 'fb2', 'lit', 'lrf', 'pdb', 'pmlz', 'rb', 'tcr', 'txtz', 'htmlz'] as const;
/** Why SNB is no longer written: nothing here can read what calibre writes, so no pair to it can be proven. */
export const SNB_WITHDRAWN = 'no reader here reads the SNB calibre writes (calibre itself fails on it with an IndexError), so its content cannot be proven';
/** General document outputs, offered only from e-book inputs (the document family owns them otherwise). */
export const DOCUMENT_OUTPUTS = ['pdf', 'docx', 'rtf', 'txt'] as const;

/** Output profiles of calibre 6 users pick most; the value is calibre's profile name. */
export const OUTPUT_PROFILES = [
  ['default', 'Generic e-reader'],
  ['tablet', 'Tablet'],
  ['kindle', 'Kindle'],
  ['kindle_pw3', 'Kindle Paperwhite 3'],
  ['kindle_fire', 'Kindle Fire'],
  ['kobo', 'Kobo Reader'],
  ['nook', 'Nook'],
  ['sony', 'Sony Reader'],
  ['ipad3', 'iPad (retina)'],
  ['generic_eink', 'Generic e-ink'],
  ['generic_eink_hd', 'Generic e-ink HD'],
] as const;

export const PAPER_SIZES = [
  ['a4', 'A4'],
  ['letter', 'US Letter'],
  ['a5', 'A5'],
  ['legal', 'US Legal'],
  ['b5', 'B5'],
] as const;

/** A comic is page images: text-only outputs would be empty (txt) or drop every page (fb2, pdb, tcr; pmlz kept one of two), proven by the matrix. */
export const COMIC_TEXT_OUTPUTS = new Set(['txt', 'fb2', 'pdb', 'tcr', 'pmlz']);
/** Comic outputs the fidelity check withdrew: PalmDoc and TCR hold text only (no page pictures came out), PMLZ kept 1 page of 2. */
export const COMIC_WITHDRAWN = ['pdb', 'tcr', 'pmlz'] as const;
/** Outputs without styling: the style options (profile, font size, margins) measured no change in them. */
export const UNSTYLED_OUTPUTS = new Set(['pmlz', 'rb', 'txtz', 'rtf', 'txt']);
