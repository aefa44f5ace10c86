import { create } from '@bufbuild/protobuf';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';
import { booleanOr, boolValue, choiceOr, integerIn, numberValue, textValue } from '../option-builders';
import { CMYK_OUTPUTS, IMAGE_DECODERS, IMAGE_ENCODERS, LOSSLESS_CAPABLE, LOSSY_OUTPUTS } from './image-formats';

export const FITS = ['inside', 'cover', 'contain', 'fill', 'outside'] as const;
export const BACKGROUNDS = { keep: null, white: '#ffffff', black: '#000000', grey: '#808080' } as const;
export const COLORSPACES = ['srgb', 'grayscale', 'cmyk'] as const;
export const MAX_DIMENSION = 16_384;
/**
 * Where the option checks measured an option doing nothing, and why it is not offered there.
 */
export const IMAGE_OPTION_HAS_NO_EFFECT: Record<string, Record<string, string>> = {
  background: { svg: 'a traced SVG has no background: only the traced shapes' },
  colorspace: {
    ...Object.fromEntries(['svg', 'pgm', 'pbm', 'xbm', 'wbmp', 'fits'].map((output) => [output, 'the output is grey (or black and white) whatever is chosen'])),
    ...Object.fromEntries(['gif', 'exr', 'dds'].map((output) => [output, 'the writer turns the grey picture back into colours (measured: not grey)'])),
  },
  strip: Object.fromEntries(['gif', 'tif', 'tiff'].map((output) => [output, 'libvips writes no EXIF into this format: there is nothing to keep or strip'])),
};
const offered = (option: string, output: string) => !IMAGE_OPTION_HAS_NO_EFFECT[option]?.[output];
/** Outputs whose size is mostly Ghostscript's PostScript prolog. */
export const POSTSCRIPT_OUTPUTS = new Set(['eps', 'ps']);

/** Metadata survives only where libvips both reads and writes the file. */
export const keepsMetadata = (input: string, output: string) => IMAGE_DECODERS[input]?.engine === 'sharp' && IMAGE_ENCODERS[output]?.engine === 'sharp';

/** The options one image pair accepts; only those that change this pair's output. */
export function imageOptions(inputFormat: string, outputFormat: string): ConversionOption[] {
  const options: ConversionOption[] = [];
  const lossless = LOSSLESS_CAPABLE.has(outputFormat);
  if (lossless) {
    options.push(
      create(ConversionOptionSchema, {
        name: 'lossless',
        type: 'checkbox',
        label: 'Lossless',
        description: 'Keep every pixel exactly; quality no longer applies.',
        group: 'quality',
        default: boolValue(false),
      }),
    );
  }
  if (LOSSY_OUTPUTS.has(outputFormat)) {
    options.push(
      create(ConversionOptionSchema, {
        name: 'quality',
        type: 'range',
        label: 'Quality',
        // Ghostscript's PostScript writers re-encode the picture inside a large prolog: the option check measured the detail change, not the size.
        description: POSTSCRIPT_OUTPUTS.has(outputFormat)
          ? 'Compression quality of the picture inside; higher keeps more detail (the size is mostly PostScript and barely changes).'
          : 'Compression quality; higher keeps more detail in a larger file.',
        group: 'quality',
        min: 1n,
        max: 100n,
        step: 1n,
        default: numberValue(80),
        appliesWhen: lossless ? { lossless: 'false' } : {},
      }),
    );
  }
  options.push(
    create(ConversionOptionSchema, {
      name: 'width',
      type: 'number',
      label: 'Width',
      description: 'Target width in pixels; empty keeps the source width (or follows the height).',
      group: 'size',
      min: 1n,
      max: BigInt(MAX_DIMENSION),
    }),
    create(ConversionOptionSchema, {
      name: 'height',
      type: 'number',
      label: 'Height',
      description: 'Target height in pixels; empty keeps the source height (or follows the width).',
      group: 'size',
      min: 1n,
      max: BigInt(MAX_DIMENSION),
    }),
    create(ConversionOptionSchema, {
      name: 'fit',
      type: 'select',
      label: 'Fit',
      description: 'How the image fits a box given by both width and height.',
      group: 'size',
      values: FITS.map((value) => ({ value, label: value })),
      default: textValue('inside'),
    }),
    create(ConversionOptionSchema, {
      name: 'background',
      type: 'select',
      label: 'Background',
      description: 'Fills transparent areas with a colour; "keep" leaves them transparent where the format allows (white elsewhere).',
      group: 'color',
      values: Object.keys(BACKGROUNDS).map((value) => ({ value, label: value })),
      default: textValue('keep'),
    }),
    create(ConversionOptionSchema, {
      name: 'colorspace',
      type: 'select',
      label: 'Colour space',
      description: 'Colour model of the result.',
      group: 'color',
      values: COLORSPACES.filter((value) => value !== 'cmyk' || CMYK_OUTPUTS.has(outputFormat)).map((value) => ({ value, label: value })),
      default: textValue('srgb'),
    }),
  );
  if (outputFormat === 'svg') {
    options.push(
      create(ConversionOptionSchema, {
        name: 'threshold',
        type: 'range',
        label: 'Threshold',
        description: 'Brightness (percent) below which a pixel is traced as ink.',
        group: 'tracing',
        min: 1n,
        max: 99n,
        step: 1n,
        default: numberValue(50),
      }),
    );
  }
  if (keepsMetadata(inputFormat, outputFormat)) {
    options.push(
      create(ConversionOptionSchema, {
        name: 'strip',
        type: 'checkbox',
        label: 'Strip metadata',
        description: 'Drop EXIF, XMP and ICC metadata from the result.',
        group: 'metadata',
        default: boolValue(true),
      }),
    );
  }
  return options.filter((option) => offered(option.name, outputFormat));
}

export interface ImageSettings {
  quality: number;
  lossless: boolean;
  width?: number;
  height?: number;
  fit: (typeof FITS)[number];
  /** A colour to flatten onto, or null to keep transparency. */
  background: string | null;
  colorspace: (typeof COLORSPACES)[number];
  threshold: number;
  strip: boolean;
}

/** Reads the options a task sent; anything unknown or out of range falls back to its default. */
export function imageSettings(options: Readonly<Record<string, unknown>>, outputFormat: string): ImageSettings {
  const background = options['background'];
  const colorspace = choiceOr(options['colorspace'], COLORSPACES, 'srgb');
  return {
    quality: integerIn(options['quality'], 1, 100) ?? 80,
    lossless: LOSSLESS_CAPABLE.has(outputFormat) && booleanOr(options['lossless'], false),
    width: integerIn(options['width'], 1, MAX_DIMENSION),
    height: integerIn(options['height'], 1, MAX_DIMENSION),
    fit: choiceOr(options['fit'], FITS, 'inside'),
    background: typeof background === 'string' && background in BACKGROUNDS ? BACKGROUNDS[background as keyof typeof BACKGROUNDS] : null,
    colorspace: colorspace === 'cmyk' && !CMYK_OUTPUTS.has(outputFormat) ? 'srgb' : colorspace,
    threshold: integerIn(options['threshold'], 1, 99) ?? 50,
    strip: booleanOr(options['strip'], true),
  };
}
