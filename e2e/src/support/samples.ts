import sharp from 'sharp';

/** A generated source file (never a fixture in git). */
export interface Sample {
  bytes: Buffer;
  format: 'png';
  width: number;
  height: number;
}

/**
 * A small PNG with a colour gradient: odd, unequal sides so a swapped or
 * rounded dimension in the result shows.
 */
export async function gradientPng(width = 321, height = 203): Promise<Sample> {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * channels;
      raw[offset] = Math.round((255 * x) / Math.max(1, width - 1));
      raw[offset + 1] = Math.round((255 * y) / Math.max(1, height - 1));
      raw[offset + 2] = (x * 7 + y * 13) % 256;
    }
  }
  const bytes = await sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
  return { bytes, format: 'png', width, height };
}

/**
 * A PNG of Gaussian noise (square unless a height is given): incompressible,
 * so decoding it and encoding the result take time in proportion to its area
 * (sized by the caller to make a conversion last seconds). Written with light
 * compression to keep generation quick.
 */
export async function noisePng(size: number, height = size): Promise<Sample> {
  const bytes = await sharp({
    create: {
      width: size,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { bytes, format: 'png', width: size, height };
}

export interface DecodedImage {
  /** As sharp names it: 'jpeg', 'webp', 'png', ... */
  format: string;
  width: number;
  height: number;
}

/**
 * Reads an image the way a client would check it: the header says what it is,
 * and every pixel decodes (a truncated file fails here, not only later).
 */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  const metadata = await sharp(bytes).metadata();
  const { info } = await sharp(bytes, { failOn: 'truncated' }).raw().toBuffer({ resolveWithObject: true });
  if (!metadata.format || !metadata.width || !metadata.height) throw new Error(`sharp could not tell the format or size: ${JSON.stringify(metadata)}`);
  if (info.width !== metadata.width || info.height !== metadata.height) {
    throw new Error(`header says ${metadata.width}x${metadata.height}, pixels decode to ${info.width}x${info.height}`);
  }
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

/** A 440 Hz tone, 16-bit mono PCM, as a WAV file (44 + seconds x rate x 2 bytes). */
export function toneWav(seconds = 1, rate = 16_000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) wav.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}
