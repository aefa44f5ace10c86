import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { imageContentCheck } from './image.fidelity';

/** The image content check must fail a damaged output; each case starts from a good picture. */
describe('image content check', () => {
  let dir: string;
  let source: string;
  const check = imageContentCheck();
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const picture = () =>
    sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="44" height="48" fill="#d01060"/><circle cx="22" cy="24" r="14" fill="#ffd000"/><rect x="44" y="6" width="16" height="16" fill="#000" fill-opacity="0.5"/></svg>',
      ),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-fidelity-'));
    source = join(dir, 'source.png');
    await picture().png().toFile(source);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes an exact copy and a good JPEG', async () => {
    await picture().tiff({ compression: 'lzw' }).toFile(join(dir, 'copy.tiff'));
    expect(failed(await check({ inputFormat: 'png', outputFormat: 'tiff' }, source, join(dir, 'copy.tiff'), AbortSignal.timeout(60_000)))).toEqual([]);
    await sharp(source).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toFile(join(dir, 'good.jpg'));
    expect(failed(await check({ inputFormat: 'png', outputFormat: 'jpg' }, source, join(dir, 'good.jpg'), AbortSignal.timeout(60_000)))).toEqual([]);
  });

  it('fails a black picture', async () => {
    const black = join(dir, 'black.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } })
      .jpeg()
      .toFile(black);
    expect(failed(await check({ inputFormat: 'png', outputFormat: 'jpg' }, source, black, AbortSignal.timeout(60_000)))).toEqual(['PSNR']);
  });

  it('fails a picture of the wrong size, and one that lost its alpha', async () => {
    const small = join(dir, 'small.png');
    await picture().resize(32, 24).png().toFile(small);
    expect(failed(await check({ inputFormat: 'png', outputFormat: 'png' }, source, small, AbortSignal.timeout(60_000)))).toEqual(['dimensions']);
    const opaque = join(dir, 'opaque.tiff');
    await picture().flatten({ background: '#000000' }).tiff({ compression: 'lzw' }).toFile(opaque);
    expect(failed(await check({ inputFormat: 'png', outputFormat: 'tiff' }, source, opaque, AbortSignal.timeout(60_000)))).toEqual(expect.arrayContaining(['alpha kept']));
  });

  it('fails an animation that lost frames, unless the pair declares it', async () => {
    const frames = await Promise.all(
      [0, 1, 2].map((i) =>
        sharp({ create: { width: 16, height: 16, channels: 4, background: { r: i * 100, g: 50, b: 50, alpha: 1 } } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = join(dir, 'animated.webp');
    await sharp(frames, { join: { animated: true } })
      .webp({ lossless: true })
      .toFile(animated);
    const still = join(dir, 'still.webp');
    await sharp(frames[0]).webp({ lossless: true }).toFile(still);
    expect(failed(await check({ inputFormat: 'webp', outputFormat: 'webp' }, animated, still, AbortSignal.timeout(60_000)))).toEqual(['frames']);
    const png = join(dir, 'first.png');
    await sharp(frames[0]).png().toFile(png);
    expect(failed(await check({ inputFormat: 'webp', outputFormat: 'png', note: 'only the first frame of an animation' }, animated, png, AbortSignal.timeout(60_000)))).toEqual([]);
  });
});
