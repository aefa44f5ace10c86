import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { BITMAP_FONT_FORMATS } from './bitmap-fonts';
import { COLLECTION_INPUTS } from './font-formats';
import { FontFamily } from './font.family';
import { SAMPLE_FONT_NAME, fontProof } from './font.proof';
import { SECOND_FONT_NAME } from './font-samples';

/**
 * Bitmap fonts (bdf, pcf, otb), collections (ttc, otc) and EOT, every pair
 * converted by the real engines and read back by FreeType (Debian's
 * python3-freetype), not FontForge: every letter must draw the same pixels
 * as in the source (bitmap strikes as stored; outlines rendered at 16 px,
 * unhinted, which boxes with straight edges make exact). Outputs FreeType
 * does not read (sfd, svg, pt3, afm) are read as text: each letter present,
 * under the first font's name.
 */
describe('font family: bitmap fonts, collections and EOT', () => {
  const family = new FontFamily();
  const proof = fontProof();
  const signal = () => AbortSignal.timeout(120_000);
  const inputs = [...BITMAP_FONT_FORMATS, ...COLLECTION_INPUTS, 'eot'];
  const pairs = family.pairs().filter((pair) => inputs.includes(pair.inputFormat));
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
  let dir: string;
  let reader: string;
  const references = new Map<string, Promise<Glyphs>>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'font-more-'));
    reader = join(dir, 'read-glyphs.py');
    await writeFile(reader, READ_GLYPHS);
  });
  afterAll(() => Promise.all([rm(dir, { recursive: true, force: true }), proof.dispose?.()]));

  const readGlyphs = async (path: string): Promise<Glyphs> => {
    const { stdout } = await runEngine({ command: '/usr/bin/python3', args: [reader, path], timeoutMs: 60_000, signal: signal() });
    return JSON.parse(stdout) as Glyphs;
  };
  /** What the source draws: a bitmap sample as stored, an outline sample's first font as FreeType renders it. */
  const reference = (inputFormat: string, sample: string) => {
    const key = (BITMAP_FONT_FORMATS as readonly string[]).includes(inputFormat) ? 'bitmap' : 'outline';
    let glyphs = references.get(key);
    if (!glyphs) {
      // EOT is not a FreeType format: every outline sample holds the same first font, so the TTC stands for them.
      glyphs = key === 'bitmap' ? readGlyphs(sample) : proof.generateSample('ttc', join(dir, 'reference'), signal()).then(readGlyphs);
      references.set(key, glyphs);
    }
    return glyphs;
  };

  it('lists the bitmap fonts among themselves, the others towards every outline output', () => {
    expect(pairs.filter((pair) => pair.inputFormat === 'bdf').map((pair) => pair.outputFormat)).toEqual(['pcf', 'otb']);
    expect(pairs.filter((pair) => pair.inputFormat === 'eot')).toHaveLength(12);
  });

  it.each(pairs.map((pair) => [pair.inputFormat, pair.outputFormat]))('%s → %s keeps every letter', async (inputFormat, outputFormat) => {
    const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
    const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
    const outputPath = join(pairDir, `out.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    const text = TEXT_OUTPUTS[outputFormat];
    if (text) {
      const content = await readFile(outputPath, 'latin1');
      expect(content).toContain(SAMPLE_FONT_NAME);
      expect(content).not.toContain(SECOND_FONT_NAME);
      for (const letter of letters) expect(content).toMatch(text(letter));
      return;
    }
    const [source, output] = await Promise.all([reference(inputFormat, inputPath), readGlyphs(outputPath)]);
    expect(output.family).toBe('Transmute Sample');
    expect(Object.keys(output.glyphs).sort()).toEqual([...letters].sort());
    for (const letter of letters) expect({ letter, pixels: output.glyphs[letter] }).toEqual({ letter, pixels: source.glyphs[letter] });
  });

  it('a collection converts its first font only', async () => {
    const pairDir = await mkdtemp(join(dir, 'first-only-'));
    const inputPath = await proof.generateSample('ttc', pairDir, signal());
    const outputPath = join(pairDir, 'out.sfd');
    await family.convert({ inputPath, outputPath, inputFormat: 'ttc', outputFormat: 'sfd', options: {}, signal: signal(), reportProgress: () => undefined });
    expect(await readFile(outputPath, 'latin1')).toMatch(new RegExp(`^FontName: ${SAMPLE_FONT_NAME}$`, 'm'));
  });
});

interface Glyphs {
  family: string;
  /** Each letter's lit pixels as "x,y" (y up from the baseline). */
  glyphs: Record<string, string[]>;
}

/** How each text output names a letter. */
const TEXT_OUTPUTS: Record<string, (letter: string) => RegExp> = {
  sfd: (letter) => new RegExp(`^Encoding: ${letter.charCodeAt(0)} `, 'm'),
  svg: (letter) => new RegExp(`<glyph[^>]*unicode="${letter}"`),
  pt3: (letter) => new RegExp(`/${letter}\\s`),
  afm: (letter) => new RegExp(`^C ${letter.charCodeAt(0)} ; WX \\d+ ; N ${letter} ;`, 'm'),
};

/** FreeType: the first face, its first strike (bitmap fonts) or 16 px unhinted (outlines), each letter's lit pixels. */
const READ_GLYPHS = `
import json, sys
import freetype
face = freetype.Face(sys.argv[1])
if face.is_scalable:
    face.set_pixel_sizes(0, 16)
    flags = freetype.FT_LOAD_RENDER | freetype.FT_LOAD_TARGET_MONO | freetype.FT_LOAD_NO_HINTING
else:
    face.select_size(0)
    flags = freetype.FT_LOAD_RENDER | freetype.FT_LOAD_TARGET_MONO
glyphs = {}
for code in list(range(0x41, 0x5b)) + list(range(0x61, 0x7b)):
    if face.get_char_index(code) == 0:
        continue
    face.load_char(code, flags)
    bitmap = face.glyph.bitmap
    lit = []
    for row in range(bitmap.rows):
        line = bitmap.buffer[row * bitmap.pitch:(row + 1) * bitmap.pitch]
        for col in range(bitmap.width):
            if (line[col // 8] >> (7 - col % 8)) & 1:
                lit.append('%d,%d' % (face.glyph.bitmap_left + col, face.glyph.bitmap_top - row))
    glyphs[chr(code)] = sorted(lit)
print(json.dumps({'family': face.family_name.decode(), 'glyphs': glyphs}))
`;
