import sharp from 'sharp';

/** Decoded pixels as 8-bit RGBA, the common ground every image comparison works on. */
export interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

/** Reads any file libvips decodes (PNG, the readers' output) into RGBA; `page` picks a frame. */
export async function readRgba(path: string, page = 0): Promise<Rgba> {
  const { data, info } = await sharp(path, { page, limitInputPixels: false }).ensureAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: rgbaOf(data, info.channels) };
}

function rgbaOf(data: Buffer, channels: number): Buffer {
  if (channels === 4) return data;
  // Grey plus alpha: spread the grey over three channels.
  const pixels = data.length / channels;
  const out = Buffer.alloc(pixels * 4);
  for (let i = 0; i < pixels; i += 1) {
    const grey = data[i * channels]!;
    out[i * 4] = grey;
    out[i * 4 + 1] = grey;
    out[i * 4 + 2] = grey;
    out[i * 4 + 3] = channels === 2 ? data[i * channels + 1]! : 255;
  }
  return out;
}

/** Resizes to a size, for comparing pictures a format had to rescale (icons, traced vectors). */
export async function resized(image: Rgba, width: number, height: number): Promise<Rgba> {
  if (image.width === width && image.height === height) return image;
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { width, height, data };
}

/** The picture as a viewer shows it over `background` (default white): what a format without alpha keeps. */
export function flattened(image: Rgba, background: readonly [number, number, number] = [255, 255, 255]): Rgba {
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    const alpha = image.data[i + 3]! / 255;
    for (let c = 0; c < 3; c += 1) data[i + c] = Math.round(image.data[i + c]! * alpha + background[c]! * (1 - alpha));
    data[i + 3] = 255;
  }
  return { ...image, data };
}

/** Luma (Rec. 601) in every colour channel: what a grey target keeps. */
export function greyed(image: Rgba): Rgba {
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    const luma = Math.round(0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!);
    data[i] = luma;
    data[i + 1] = luma;
    data[i + 2] = luma;
    data[i + 3] = image.data[i + 3]!;
  }
  return { ...image, data };
}

/** Peak signal-to-noise ratio over the colour channels, in dB; Infinity for identical pixels. */
export function psnr(a: Rgba, b: Rgba): number {
  assertSameSize(a, b);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c += 1) {
      const diff = a.data[i + c]! - b.data[i + c]!;
      sum += diff * diff;
      count += 1;
    }
  }
  const mse = sum / count;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** The largest difference of any colour channel of any pixel. */
export function maxDifference(a: Rgba, b: Rgba, channels: readonly number[] = [0, 1, 2]): number {
  assertSameSize(a, b);
  let max = 0;
  for (let i = 0; i < a.data.length; i += 4) for (const c of channels) max = Math.max(max, Math.abs(a.data[i + c]! - b.data[i + c]!));
  return max;
}

/** Share of pixels on the same side of mid-grey in both pictures: the measure for black-and-white targets. */
export function inkAgreement(a: Rgba, b: Rgba): number {
  assertSameSize(a, b);
  const ink = (image: Rgba, i: number) => 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]! < 128;
  let same = 0;
  for (let i = 0; i < a.data.length; i += 4) if (ink(a, i) === ink(b, i)) same += 1;
  return same / (a.data.length / 4);
}

/** Share of pixels that are not (almost) white: a blank page has none. */
export function inkCoverage(image: Rgba): number {
  let ink = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const alpha = image.data[i + 3]! / 255;
    const luma = (0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!) * alpha + 255 * (1 - alpha);
    if (luma < 200) ink += 1;
  }
  return ink / (image.data.length / 4);
}

/** Whether any pixel is less than fully opaque. */
export function hasTransparency(image: Rgba): boolean {
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! < 250) return true;
  return false;
}

/** Whether every pixel is grey (R = G = B within a small tolerance). */
export function isGrey(image: Rgba, tolerance = 3): boolean {
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
    if (Math.abs(r - g) > tolerance || Math.abs(g - b) > tolerance) return false;
  }
  return true;
}

export const formatDb = (db: number) => (Number.isFinite(db) ? `${db.toFixed(1)} dB` : 'identical');

function assertSameSize(a: Rgba, b: Rgba): void {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`cannot compare ${a.width}x${a.height} with ${b.width}x${b.height}`);
}

/** Whether every pixel is (almost) black or white. */
export function isBitonal(image: Rgba): boolean {
  for (let i = 0; i < image.data.length; i += 4) {
    for (let c = 0; c < 3; c += 1) {
      const value = image.data[i + c]!;
      if (value > 8 && value < 247) return false;
    }
  }
  return true;
}

/** Alpha cut at half: what a format with all-or-nothing transparency (GIF) can keep. */
export function thresholdAlpha(image: Rgba): Rgba {
  const data = Buffer.from(image.data);
  for (let i = 3; i < data.length; i += 4) data[i] = data[i]! >= 128 ? 255 : 0;
  return { ...image, data };
}

/** Share of pixels that are less than half opaque. */
export function transparentShare(image: Rgba): number {
  let clear = 0;
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! < 128) clear += 1;
  return clear / (image.data.length / 4);
}
