import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ImageFamily } from './image.family';

describe('ImageFamily', () => {
  const family = new ImageFamily();
  let dir: string;
  let source: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-family-'));
    source = join(dir, 'source.png');
    await sharp({ create: { width: 320, height: 200, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.5 } }, })
      .composite([{ input: { create: { width: 100, height: 100, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }, left: 20, top: 20 }])
      .png()
      .toFile(source);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}) => {
    const outputPath = join(dir, `out-${outputFormat}-${JSON.stringify(options).replace(/\W/g, '')}.${outputFormat}`);
    await family.convert({ inputPath: source, outputPath, inputFormat: 'png', outputFormat, options, signal: new AbortController().signal });
    return { path: outputPath, meta: await sharp(outputPath).metadata(), size: (await stat(outputPath)).size };
  };

  it.each([
    ['jpg', 'jpeg'],
    ['webp', 'webp'],
    ['avif', 'heif'],
    ['tiff', 'tiff'],
    ['gif', 'gif'],
  ])('converts png to %s', async (format, detected) => {
    const { meta } = await convert(format);
    expect(meta.format).toBe(detected);
    expect([meta.width, meta.height]).toEqual([320, 200]);
  });

  it('honours quality: a lower quality makes a smaller jpg', async () => {
    const low = await convert('jpg', { quality: 10 });
    const high = await convert('jpg', { quality: 95 });
    expect(low.size).toBeLessThan(high.size);
  });

  it('honours width and height with fit', async () => {
    expect((await convert('png', { width: 160 })).meta).toMatchObject({ width: 160, height: 100 });
    expect((await convert('png', { width: 100, height: 100, fit: 'cover' })).meta).toMatchObject({ width: 100, height: 100 });
    expect((await convert('png', { width: 100, height: 100, fit: 'inside' })).meta).toMatchObject({ width: 100, height: 63 });
  });

  it('ignores options it does not know or cannot read', async () => {
    const { meta } = await convert('webp', { quality: 'lots', width: -4, colour: 'blue' });
    expect([meta.width, meta.height]).toEqual([320, 200]);
  });

  it('fails a file libvips cannot read as a permanent error', async () => {
    const broken = join(dir, 'broken.png');
    await writeFile(broken, 'not a png');
    await expect(
      family.convert({ inputPath: broken, outputPath: join(dir, 'x.jpg'), inputFormat: 'png', outputFormat: 'jpg', options: {}, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ name: 'ServiceFailure', retryable: false });
  });

  it('declares every pair it converts, never a format to itself', () => {
    const pairs = family.pairs();
    expect(pairs.find((pair) => pair.inputFormat === 'png' && pair.outputFormat === 'jpg')?.options.map((o) => o.name)).toEqual([
      'quality',
      'width',
      'height',
      'fit',
      'strip',
    ]);
    expect(pairs.some((pair) => pair.inputFormat === 'png' && pair.outputFormat === 'png')).toBe(false);
    expect(pairs.some((pair) => pair.inputFormat === 'jpeg' && pair.outputFormat === 'jpg')).toBe(false);
  });
});
