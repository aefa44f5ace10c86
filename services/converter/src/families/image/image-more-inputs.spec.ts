import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageFamily } from './image.family';
import { imageProof } from './image.proof';

/** How close each input's pixels come back, in dB of PSNR against what its sample was made from. */
const INPUTS: Record<string, number> = {
  btf: 60,
  tf8: 60,
  vbn: 40,
  leaf: 60,
  img: 60,
  // NEOchrome stores 3 bits per channel: ppmtoneo rescales the 8-bit colours.
  neo: 25,
};

/**
 * BigTIFF (btf, tf8), Vizrt VBN, Interleaf, GEM and NEOchrome images,
 * converted by the family to PNG (lossless), TIFF and JPEG (lossy), then
 * compared by ImageMagick with the pixels the sample was written from: the
 * same size, and PSNR above each format's bound (the lossy ones: 25 dB). Every other output of these inputs is checked by the
 * matrix (signature and a decoder), as for every image input.
 */
describe('image family: BigTIFF, VBN, Interleaf, GEM and NEOchrome', () => {
  const family = new ImageFamily();
  const proof = imageProof();
  const signal = () => AbortSignal.timeout(60_000);
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'image-more-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists each input towards every image output', () => {
    for (const input of Object.keys(INPUTS)) expect(family.pairs().filter((pair) => pair.inputFormat === input)).toHaveLength(42);
  });

  it.each(Object.keys(INPUTS).flatMap((input) => ['png', 'tiff', 'jpg'].map((output) => [input, output])))('%s → %s keeps the picture', async (inputFormat, outputFormat) => {
    const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
    const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
    const outputPath = join(pairDir, `out.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    // What the sample was written from: the Netpbm file fed to the writer, or the PNG for the others.
    const base = (await readdir(pairDir)).find((name) => /^base\.(ppm|pgm|pbm)$/.test(name)) ?? 'base.png';
    const reference = join(pairDir, base);
    expect(size(outputPath)).toEqual(size(reference));
    // A lossy target on top of NEOchrome's 3-bit colours loses both ways (measured: 23.1 dB for TIFF and JPEG).
    const bound = outputFormat === 'png' ? INPUTS[inputFormat]! : Math.min(LOSSY_DB, INPUTS[inputFormat]! - 3);
    expect(psnr(reference, outputPath)).toBeGreaterThanOrEqual(bound);
  });
});

/** JPEG, and TIFF, which libvips writes with JPEG compression here. */
const LOSSY_DB = 25;

/** Width and height as ImageMagick reads them. */
function size(path: string): string {
  const { stdout, status, stderr } = spawnSync('identify-im6.q16', ['-format', '%wx%h', `${path}[0]`], { encoding: 'utf8', timeout: 60_000 });
  if (status !== 0) throw new Error(`ImageMagick could not read ${path}: ${stderr}`);
  return stdout.trim();
}

/** PSNR by ImageMagick over the colour channels, both pictures first flattened on white; identical pictures count as 100 dB. */
function psnr(a: string, b: string): number {
  const flattened = [a, b].map((path) => {
    const flat = `${path}.flat.png`;
    const result = spawnSync('convert-im6.q16', [path, '-background', 'white', '-alpha', 'remove', '-alpha', 'off', '-colorspace', 'sRGB', '-type', 'TrueColor', `png24:${flat}`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`ImageMagick could not read ${path}: ${result.stderr}`);
    return flat;
  });
  // compare exits 1 when the pictures differ at all.
  const { stderr, status } = spawnSync('compare-im6.q16', ['-metric', 'PSNR', flattened[0]!, flattened[1]!, 'null:'], { encoding: 'utf8', timeout: 60_000 });
  if (status !== 0 && status !== 1) throw new Error(`ImageMagick could not compare ${a} and ${b}: ${stderr}`);
  return stderr.trim() === 'inf' ? 100 : Number.parseFloat(stderr);
}
