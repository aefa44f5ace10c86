import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FontFamily } from './font.family';
import { fontProof, verifyFontOutput } from './font.proof';

/** The font family with the real FontForge and woff2 tools. */
describe('FontFamily', () => {
  const family = new FontFamily();
  const proof = fontProof();
  let dir: string;
  const signal = () => AbortSignal.timeout(60_000);
  const convert = async (inputPath: string, inputFormat: string, outputFormat: string) => {
    const outputPath = join(dir, `${inputFormat}-to.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    return outputPath;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'font-family-'));
    await family.start();
  });
  afterAll(() => Promise.all([rm(dir, { recursive: true, force: true }), proof.dispose?.()]));

  it('round-trips TrueType through WOFF2 with the reference encoder, keeping the font', async () => {
    const ttf = await proof.generateSample('ttf', join(dir, 'sample'), signal());
    const woff2 = await convert(ttf, 'ttf', 'woff2');
    await verifyFontOutput('woff2', woff2);
    const back = await convert(woff2, 'woff2', 'ttf');
    await verifyFontOutput('ttf', back);
  });

  it('writes Type 1 and metrics from an OpenType font', async () => {
    const otf = await proof.generateSample('otf', join(dir, 'sample-otf'), signal());
    await verifyFontOutput('pfb', await convert(otf, 'otf', 'pfb'));
    await verifyFontOutput('afm', await convert(otf, 'otf', 'afm'));
  });

  it('fails a file that is not a font with a clear message', async () => {
    await mkdir(join(dir, 'bad'), { recursive: true });
    const bogus = join(dir, 'bad', 'bogus.ttf');
    await writeFile(bogus, 'this is not a font');
    await expect(convert(bogus, 'ttf', 'otf')).rejects.toThrow(/fontforge|not be a font/i);
    await expect(convert(bogus, 'ttf', 'woff2')).rejects.toThrow(/woff2_compress/);
  });

  it('lists every input towards every other output, and nothing twice', () => {
    const pairs = family.pairs().map((pair) => `${pair.inputFormat}->${pair.outputFormat}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs).toContain('woff2->otf');
    expect(pairs).not.toContain('ttf->ttf');
  });
});
