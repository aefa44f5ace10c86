import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { Findings } from '../../matrix/fidelity/findings';
import type { OptionCheck, OptionRun } from '../../matrix/fidelity/option-checks';
import { flattened, formatDb, hasTransparency, inkCoverage, isGrey, maxDifference, psnr, readRgba } from '../../matrix/fidelity/pixels';
import { runEngine } from '../../engine/run-engine';
import { read } from './image.fidelity';
import { CMYK_OUTPUTS } from './image-formats';
import { POSTSCRIPT_OUTPUTS } from './image-options';

const size = async (path: string) => (await stat(path)).size;
const readBoth = async (run: OptionRun) => {
  const format = run.pair.outputFormat;
  const [source, first, second] = await Promise.all([
    read(run.source, run.pair.inputFormat, 'input', run.scratch, run.signal),
    read(run.first, format, 'output', run.scratch, run.signal),
    read(run.second, format, 'output', run.scratch, run.signal),
  ]);
  return { source: source.image, first: first.image, second: second.image };
};
const dimensions = (image: { width: number; height: number }) => `${image.width}x${image.height}`;

/** A JPEG with an EXIF copyright, so `strip` has metadata to keep or drop. */
async function exifSource(format: string, dir: string): Promise<string> {
  const path = join(dir, `exif.${format}`);
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#d01060' } })
    .withExif({ IFD0: { Copyright: 'Transmute fidelity' } })
    .toFormat(format === 'jpg' ? 'jpeg' : (format as keyof sharp.FormatEnum))
    .toFile(path);
  return path;
}

/** The image family's option promises, each converted twice from the sample. */
export const IMAGE_OPTION_CHECKS: OptionCheck[] = [
  {
    option: 'quality',
    promise: 'higher quality: a larger file closer to the source',
    runs: [{ quality: 20 }, { quality: 95 }],
    inputs: ['png'],
    async verify(run) {
      const findings = new Findings();
      const [low, high] = [await size(run.first), await size(run.second)];
      // EPS and PS promise detail only: their size is Ghostscript's prolog (quality 20 and 95 differ by 1%).
      if (POSTSCRIPT_OUTPUTS.has(run.pair.outputFormat)) findings.expect('size', true, `quality 20: ${low} bytes, quality 95: ${high} bytes (not promised for PostScript)`);
      else findings.expect('size grows', high > low, `quality 20: ${low} bytes, quality 95: ${high} bytes`);
      const { source, first, second } = await readBoth(run);
      const [lowDb, highDb] = [psnr(flattened(source), flattened(first)), psnr(flattened(source), flattened(second))];
      findings.expect('PSNR grows', highDb > lowDb, `quality 20: ${formatDb(lowDb)}, quality 95: ${formatDb(highDb)}`);
      return findings.list;
    },
  },
  {
    option: 'lossless',
    promise: 'lossless keeps every pixel',
    runs: [{ lossless: false, quality: 50 }, { lossless: true }],
    inputs: ['png'],
    async verify(run) {
      const findings = new Findings();
      const { source, first, second } = await readBoth(run);
      const exact = maxDifference(flattened(source), flattened(second));
      findings.expect('lossless is exact', exact <= 2, `largest channel difference ${exact}`);
      const lossy = maxDifference(flattened(source), flattened(first));
      findings.expect('lossy is not', lossy > exact, `lossy at quality 50: largest difference ${lossy}`);
      return findings.list;
    },
  },
  {
    option: 'width',
    promise: 'the output has that width, the height following',
    runs: [{}, { width: 32 }],
    inputs: ['png'],
    async verify(run) {
      const { first, second } = await readBoth(run);
      const findings = new Findings();
      findings.expect(
        'width',
        second.width === 32 && second.height === Math.round((32 * first.height) / first.width),
        `without: ${dimensions(first)}, width 32: ${dimensions(second)}`,
      );
      return findings.list;
    },
  },
  {
    option: 'height',
    promise: 'the output has that height, the width following',
    runs: [{}, { height: 24 }],
    inputs: ['png'],
    async verify(run) {
      const { first, second } = await readBoth(run);
      const findings = new Findings();
      findings.expect(
        'height',
        second.height === 24 && second.width === Math.round((24 * first.width) / first.height),
        `without: ${dimensions(first)}, height 24: ${dimensions(second)}`,
      );
      return findings.list;
    },
  },
  {
    option: 'fit',
    promise: 'inside keeps the proportions within the box, fill stretches to it',
    runs: [
      { width: 32, height: 32, fit: 'inside' },
      { width: 32, height: 32, fit: 'fill' },
    ],
    inputs: ['png'],
    async verify(run) {
      const { first, second } = await readBoth(run);
      const findings = new Findings();
      findings.expect('fit', dimensions(first) === '32x24' && dimensions(second) === '32x32', `inside: ${dimensions(first)}, fill: ${dimensions(second)} (box 32x32)`);
      return findings.list;
    },
  },
  {
    option: 'background',
    promise: 'transparent areas take the chosen colour',
    runs: [{ background: 'white' }, { background: 'black' }],
    // Sources with transparency, so there is something to fill (a JPEG has none).
    inputs: ['png', 'webp', 'tiff'],
    async verify(run) {
      const { first, second } = await readBoth(run);
      const findings = new Findings();
      const mean = (image: typeof first) => {
        let sum = 0;
        for (let i = 0; i < image.data.length; i += 4) sum += image.data[i]! + image.data[i + 1]! + image.data[i + 2]!;
        return sum / (image.data.length * 0.75);
      };
      findings.expect('opaque', !hasTransparency(first) && !hasTransparency(second), 'a chosen background leaves no transparency');
      findings.expect('darker on black', mean(second) < mean(first) - 2, `mean level on white ${mean(first).toFixed(1)}, on black ${mean(second).toFixed(1)}`);
      return findings.list;
    },
  },
  {
    option: 'colorspace',
    promise: 'grayscale gives a grey picture',
    runs: [{ colorspace: 'srgb' }, { colorspace: 'grayscale' }],
    inputs: ['png'],
    async verify(run) {
      const { first, second } = await readBoth(run);
      const findings = new Findings();
      findings.expect('grey', !isGrey(first) && isGrey(second), `srgb grey: ${isGrey(first)}, grayscale grey: ${isGrey(second)}`);
      return findings.list;
    },
  },
  {
    option: 'colorspace',
    promise: 'cmyk writes a CMYK file',
    runs: [{ colorspace: 'srgb' }, { colorspace: 'cmyk' }],
    inputs: ['png'],
    outputs: (output) => CMYK_OUTPUTS.has(output),
    async verify(run) {
      const findings = new Findings();
      const space = async (path: string) => (await sharp(path).metadata()).space;
      const [first, second] = [await space(run.first), await space(run.second)];
      findings.expect('CMYK', first === 'srgb' && second === 'cmyk', `srgb run: ${first}, cmyk run: ${second} (as libvips reads them)`);
      return findings.list;
    },
  },
  {
    option: 'threshold',
    promise: 'a higher threshold traces more of the picture as ink',
    runs: [{ threshold: 20 }, { threshold: 80 }],
    inputs: ['png'],
    async verify(run) {
      const findings = new Findings();
      const ink = async (path: string, name: string) => {
        const png = join(run.scratch, `${name}.png`);
        await runEngine({ command: 'rsvg-convert', args: ['--format', 'png', '--output', png, path], timeoutMs: 60_000, signal: run.signal });
        return inkCoverage(await readRgba(png));
      };
      const [low, high] = [await ink(run.first, 'low'), await ink(run.second, 'high')];
      findings.expect('more ink', high > low, `ink at 20%: ${(low * 100).toFixed(1)}%, at 80%: ${(high * 100).toFixed(1)}%`);
      return findings.list;
    },
  },
  {
    option: 'strip',
    promise: 'strip=false keeps the EXIF metadata, strip=true drops it',
    runs: [{ strip: true }, { strip: false }],
    inputs: ['jpg'],
    source: (format, dir) => exifSource(format, dir),
    async verify(run) {
      const findings = new Findings();
      const exif = async (path: string) => (await sharp(path).metadata()).exif?.includes(Buffer.from('Transmute fidelity')) ?? false;
      const [stripped, kept] = [await exif(run.first), await exif(run.second)];
      findings.expect('metadata', !stripped && kept, `strip=true has the EXIF copyright: ${stripped}; strip=false: ${kept}`);
      return findings.list;
    },
  },
];
