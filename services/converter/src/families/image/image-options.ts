import { create } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';

/** Formats sharp (libvips) reads, and those it writes, by their file extension. */
export const IMAGE_INPUTS = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'tif', 'tiff', 'avif', 'svg'] as const;
export const IMAGE_OUTPUTS = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'tif', 'tiff', 'avif'] as const;
const LOSSY = new Set(['jpg', 'jpeg', 'webp', 'avif']);

const number = (value: number) => create(ValueSchema, { kind: { case: 'numberValue', value } });
const text = (value: string) => create(ValueSchema, { kind: { case: 'stringValue', value } });
const bool = (value: boolean) => create(ValueSchema, { kind: { case: 'boolValue', value } });

export const FITS = ['inside', 'cover', 'contain', 'fill', 'outside'] as const;

/** The options one image pair accepts. */
export function imageOptions(outputFormat: string): ConversionOption[] {
  const options: ConversionOption[] = [];
  if (LOSSY.has(outputFormat)) {
    options.push(
      create(ConversionOptionSchema, {
        name: 'quality',
        type: 'range',
        label: 'Quality',
        description: 'Compression quality; higher keeps more detail in a larger file.',
        group: 'quality',
        min: 1n,
        max: 100n,
        step: 1n,
        default: number(80),
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
      max: 16_384n,
    }),
    create(ConversionOptionSchema, {
      name: 'height',
      type: 'number',
      label: 'Height',
      description: 'Target height in pixels; empty keeps the source height (or follows the width).',
      group: 'size',
      min: 1n,
      max: 16_384n,
    }),
    create(ConversionOptionSchema, {
      name: 'fit',
      type: 'select',
      label: 'Fit',
      description: 'How the image fits a box given by both width and height.',
      group: 'size',
      values: FITS.map((value) => ({ value, label: value })),
      default: text('inside'),
    }),
    create(ConversionOptionSchema, {
      name: 'strip',
      type: 'checkbox',
      label: 'Strip metadata',
      description: 'Drop EXIF, XMP and ICC metadata from the result.',
      group: 'metadata',
      default: bool(true),
    }),
  );
  return options;
}

export interface ImageSettings {
  quality: number;
  width?: number;
  height?: number;
  fit: (typeof FITS)[number];
  strip: boolean;
}

function integerIn(value: unknown, min: number, max: number): number | undefined {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/** Reads the options a task sent; anything unknown or out of range falls back to its default. */
export function imageSettings(options: Readonly<Record<string, unknown>>): ImageSettings {
  const fit = FITS.find((candidate) => candidate === options['fit']) ?? 'inside';
  const strip = options['strip'] === false || options['strip'] === 'false' ? false : true;
  return {
    quality: integerIn(options['quality'], 1, 100) ?? 80,
    width: integerIn(options['width'], 1, 16_384),
    height: integerIn(options['height'], 1, 16_384),
    fit,
    strip,
  };
}
