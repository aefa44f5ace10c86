import type { ConversionOption } from '@transmute/contracts';
import { booleanOr, checkboxOption, choiceOr, integerIn, numberOption, selectOption } from '../option-builders';
import { OUTPUT_PROFILES, PAPER_SIZES, UNSTYLED_OUTPUTS } from './ebook-formats';

const outputProfile = selectOption({
  name: 'output_profile',
  label: 'Output profile',
  description: 'The reading device to optimise for: screen size, font sizes, cover size.',
  group: 'layout',
  values: OUTPUT_PROFILES,
  default: 'default',
});
const baseFontSize = numberOption({
  name: 'base_font_size',
  label: 'Base font size (pt)',
  description: 'Rescale the text so the body font is this size; empty keeps the profile default.',
  group: 'layout',
  min: 6,
  max: 48,
});
const margin = numberOption({
  name: 'margin',
  label: 'Page margins (pt)',
  description: 'Top, bottom, left and right margin of every page.',
  group: 'layout',
  min: 0,
  max: 200,
  default: 5,
});
const defaultCover = checkboxOption({
  name: 'default_cover',
  label: 'Generate a cover',
  description: 'Make a cover with the title and author when the book has none.',
  group: 'cover',
  default: true,
});
const paperSize = selectOption({
  name: 'paper_size',
  label: 'Paper size',
  description: 'Page size of the PDF.',
  group: 'pdf',
  values: PAPER_SIZES,
  default: 'letter',
});

/**
 * Options of one e-book pair. Comic input (page images) has no text to
 * restyle: calibre rejects the font and margin options for it.
 */
export function ebookOptions(inputFormat: string, outputFormat: string): ConversionOption[] {
  // Text-only targets carry no styling: the option checks measured the same result whatever the style options said.
  const styled = !UNSTYLED_OUTPUTS.has(outputFormat);
  const options = !styled ? [] : COMIC_INPUTS.has(inputFormat) ? [outputProfile] : [outputProfile, baseFontSize, margin];
  if (outputFormat === 'epub') options.push(defaultCover);
  if (outputFormat === 'pdf') options.push(paperSize);
  return options;
}

export interface EbookSettings {
  outputProfile: string;
  baseFontSize?: number;
  margin: number;
  defaultCover: boolean;
  paperSize: string;
}

export function ebookSettings(options: Readonly<Record<string, unknown>>): EbookSettings {
  return {
    outputProfile: choiceOr(
      options['output_profile'],
      OUTPUT_PROFILES.map(([value]) => value),
      'default',
    ),
    baseFontSize: integerIn(options['base_font_size'], 6, 48),
    margin: integerIn(options['margin'], 0, 200) ?? 5,
    defaultCover: booleanOr(options['default_cover'], true),
    paperSize: choiceOr(
      options['paper_size'],
      PAPER_SIZES.map(([value]) => value),
      'letter',
    ),
  };
}

/** Comic archives calibre reads: zip, 7z, and a collection of comics (cbc: a zip of cbz files listed in comics.txt). */
export const COMIC_INPUTS = new Set(['cbz', 'cb7', 'cbc']);

/** ebook-convert's arguments for the settings and the pair. */
export function ebookArguments(settings: EbookSettings, inputFormat: string, outputFormat: string): string[] {
  const args = ['--output-profile', settings.outputProfile];
  if (!COMIC_INPUTS.has(inputFormat)) {
    if (settings.baseFontSize) args.push('--base-font-size', String(settings.baseFontSize));
    for (const side of ['top', 'bottom', 'left', 'right']) args.push(`--margin-${side}`, String(settings.margin));
  }
  if (outputFormat === 'epub' && !settings.defaultCover) args.push('--no-default-epub-cover');
  if (outputFormat === 'pdf') {
    args.push('--paper-size', settings.paperSize);
    for (const side of ['top', 'bottom', 'left', 'right']) args.push(`--pdf-page-margin-${side}`, String(settings.margin));
  }
  return args;
}
