import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_PIXEL_LIMIT, setPixelLimit } from '../../engine/pixel-limit';
import { ImageFamily } from './image.family';

/** Every test converts with the real engines (libvips, ImageMagick, libheif, libjxl, Ghostscript, potrace). */
describe('ImageFamily', () => {
  const family = new ImageFamily();
  let dir: string;
  let source: string;
  let counter = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-family-'));
    source = join(dir, 'source.png');
    // Half-transparent magenta with a noisy opaque square: detail for quality, alpha for background.
    await sharp({ create: { width: 320, height: 200, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 0.5 } } })
      .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }, left: 20, top: 20 }])
      .png()
      .toFile(source);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(() => setPixelLimit(DEFAULT_PIXEL_LIMIT));

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}, input = source, inputFormat = 'png') => {
    const outputPath = join(dir, `out-${(counter += 1)}.${outputFormat}`);
    await family.convert({ inputPath: input, outputPath, inputFormat, outputFormat, options, signal: new AbortController().signal, reportProgress: () => undefined });
    return { path: outputPath, size: (await stat(outputPath)).size };
  };
  const meta = (path: string) => sharp(path).metadata();
  const pixel = async (path: string, x: number, y: number) => {
    const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
    const at = (y * info.width + x) * info.channels;
    return [...data.subarray(at, at + info.channels)];
  };

  it.each([
    ['jpg', 'jpeg'],
    ['webp', 'webp'],
    ['avif', 'heif'],
    ['tiff', 'tiff'],
    ['gif', 'gif'],
  ])('converts png to %s with libvips', async (format, detected) => {
    const { path } = await convert(format);
    expect(await meta(path)).toMatchObject({ format: detected, width: 320, height: 200 });
  });

  it.each([
    ['bmp', 'BM'],
    ['psd', '8BPS'],
    ['pdf', '%PDF-'],
    ['eps', '%!PS-Adobe'],
    ['qoi', 'qoif'],
  ])('writes %s through its own engine', async (format, signature) => {
    const { path } = await convert(format);
    expect((await readFile(path)).subarray(0, signature.length).toString('latin1')).toBe(signature);
  });

  it('reads a format only ImageMagick knows (pcx), one only libheif knows (heic) and one only jxrlib knows (jxr)', async () => {
    const jxr = await convert('jxr');
    expect(await meta((await convert('png', {}, jxr.path, 'jxr')).path)).toMatchObject({ width: 320, height: 200 });
    const pcx = await convert('pcx');
    expect(await meta((await convert('png', {}, pcx.path, 'pcx')).path)).toMatchObject({ width: 320, height: 200 });
    const heic = await convert('heic');
    expect(await meta((await convert('png', {}, heic.path, 'heic')).path)).toMatchObject({ width: 320, height: 200 });
  });

  describe('options', () => {
    it.each([
      ['jpg', 'sharp'],
      ['webp', 'sharp'],
      ['heic', 'heif-enc'],
      ['jxl', 'cjxl'],
      ['jxr', 'JxrEncApp'],
      ['jp2', 'ImageMagick'],
      ['pdf', 'Ghostscript'],
    ])('quality: a lower quality makes a smaller %s (%s)', async (format) => {
      const low = await convert(format, { quality: 10 });
      const high = await convert(format, { quality: 95 });
      expect(low.size).toBeLessThan(high.size);
    });

    it('lossless: a lossless webp keeps every pixel, and quality no longer applies', async () => {
      const lossless = await convert('webp', { lossless: true, quality: 5 });
      const lossless95 = await convert('webp', { lossless: true, quality: 95 });
      const lossy = await convert('webp', { quality: 5 });
      expect(lossless.size).toBe(lossless95.size);
      expect(await pixel(lossless.path, 50, 50)).toEqual(await pixel(source, 50, 50));
      expect(await pixel(lossy.path, 50, 50)).not.toEqual(await pixel(source, 50, 50));
    });

    it('lossless: a lossless jxl decodes to the source pixels', async () => {
      const { path } = await convert('jxl', { lossless: true });
      const back = await convert('png', {}, path, 'jxl');
      expect(await pixel(back.path, 50, 50)).toEqual(await pixel(source, 50, 50));
    });

    it('lossless: a lossless jxr decodes to the (flattened) source pixels', async () => {
      const flat = await convert('png', { background: 'white' });
      const { path } = await convert('jxr', { lossless: true });
      const back = await convert('png', {}, path, 'jxr');
      expect(await pixel(back.path, 50, 50)).toEqual(await pixel(flat.path, 50, 50));
    });

    it('width, height and fit size the result, on libvips and ImageMagick outputs alike', async () => {
      expect(await meta((await convert('png', { width: 160 })).path)).toMatchObject({ width: 160, height: 100 });
      expect(await meta((await convert('png', { width: 100, height: 100, fit: 'cover' })).path)).toMatchObject({ width: 100, height: 100 });
      expect(await meta((await convert('png', { width: 100, height: 100, fit: 'inside' })).path)).toMatchObject({ width: 100, height: 63 });
      const bmp = await convert('bmp', { height: 50 });
      expect(await meta((await convert('png', {}, bmp.path, 'bmp')).path)).toMatchObject({ width: 80, height: 50 });
    });

    it('background: fills transparency with the chosen colour; keep leaves it', async () => {
      const black = await convert('png', { background: 'black' });
      expect((await meta(black.path)).hasAlpha).toBe(false);
      // The transparent-magenta corner over black: darker than over white.
      const [r] = await pixel(black.path, 300, 190);
      expect(r).toBeLessThan(120);
      const kept = await convert('png', { background: 'keep' });
      expect((await meta(kept.path)).hasAlpha).toBe(true);
      const jpg = await convert('jpg', {});
      const [jr, jg] = await pixel(jpg.path, 300, 190);
      expect([jr! > 200, jg! > 120]).toEqual([true, true]);
    });

    it('colorspace: grayscale gives one channel; cmyk gives a CMYK jpeg', async () => {
      expect(await meta((await convert('png', { colorspace: 'grayscale', background: 'white' })).path)).toMatchObject({ channels: 1 });
      expect(await meta((await convert('jpg', { colorspace: 'cmyk' })).path)).toMatchObject({ space: 'cmyk', channels: 4 });
      // cmyk is not offered for png and falls back to sRGB.
      expect(await meta((await convert('png', { colorspace: 'cmyk' })).path)).toMatchObject({ space: 'srgb' });
    });

    it('strip: EXIF is dropped by default and kept when strip is false', async () => {
      const tagged = join(dir, 'tagged.jpg');
      await sharp(source)
        .jpeg()
        .withExif({ IFD0: { Copyright: 'Transmute test' } })
        .toFile(tagged);
      expect((await meta((await convert('webp', {}, tagged, 'jpg')).path)).exif).toBeUndefined();
      const kept = await meta((await convert('webp', { strip: false }, tagged, 'jpg')).path);
      expect(kept.exif?.toString('latin1')).toContain('Transmute test');
    });

    it('threshold: a higher threshold traces more ink into the svg', async () => {
      const light = await readFile((await convert('svg', { threshold: 10, background: 'white' })).path, 'utf8');
      const dark = await readFile((await convert('svg', { threshold: 90, background: 'white' })).path, 'utf8');
      expect(light).toContain('<svg');
      expect(dark).not.toEqual(light);
    });

    it('ignores options it does not know or cannot read', async () => {
      const { path } = await convert('webp', { quality: 'lots', width: -4, colour: 'blue', background: 'plaid' });
      expect(await meta(path)).toMatchObject({ width: 320, height: 200, hasAlpha: true });
    });
  });

  describe('limits and bad input', () => {
    it('refuses an image over the pixel limit, read by libvips or by ImageMagick', async () => {
      const pcx = await convert('pcx');
      setPixelLimit(1_000);
      await expect(convert('jpg')).rejects.toMatchObject({ name: 'ServiceFailure', retryable: false });
      await expect(convert('png', {}, pcx.path, 'pcx')).rejects.toMatchObject({
        retryable: false,
        message: 'the image is 320 x 200 pixels, over the limit of 1000 pixels',
      });
    });

    it.each([
      ['png', 'libvips'],
      ['pcx', 'ImageMagick'],
      ['heic', 'heif-convert'],
      ['jxl', 'djxl'],
      ['pdf', 'gs'],
    ])('fails a file that is not really %s as a permanent error naming the cause', async (format) => {
      const broken = join(dir, `broken.${format}`);
      await writeFile(broken, 'this is not an image at all');
      const failure = await convert('jpg', {}, broken, format).catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'ServiceFailure', retryable: false });
      expect((failure as Error).message.length).toBeGreaterThan(10);
    });
  });

  describe('manifest', () => {
    const pairs = family.pairs();
    const optionsOf = (input: string, output: string) => pairs.find((pair) => pair.inputFormat === input && pair.outputFormat === output)?.options;

    it('lists over a hundred inputs, never a format to itself or to another spelling of it', () => {
      expect(new Set(pairs.map((pair) => pair.inputFormat)).size).toBeGreaterThan(95);
      expect(optionsOf('png', 'png')).toBeUndefined();
      expect(optionsOf('jpeg', 'jpg')).toBeUndefined();
      expect(optionsOf('tif', 'tiff')).toBeUndefined();
    });

    it('offers each option only where it changes the output', () => {
      expect(optionsOf('png', 'jpg')?.map((option) => option.name)).toEqual(['quality', 'width', 'height', 'fit', 'background', 'colorspace', 'strip']);
      expect(optionsOf('pcx', 'png')?.map((option) => option.name)).toEqual(['width', 'height', 'fit', 'background', 'colorspace']);
      expect(optionsOf('png', 'svg')?.map((option) => option.name)).toContain('threshold');
      expect(
        optionsOf('png', 'bmp')
          ?.find((option) => option.name === 'colorspace')
          ?.values.map((value) => value.value),
      ).toEqual(['srgb', 'grayscale']);
    });

    it('declares quality as applying only when lossless is off, where lossless exists', () => {
      expect(optionsOf('png', 'webp')?.find((option) => option.name === 'quality')?.appliesWhen).toEqual({ lossless: 'false' });
      expect(optionsOf('png', 'jpg')?.find((option) => option.name === 'quality')?.appliesWhen).toEqual({});
    });
  });
});
