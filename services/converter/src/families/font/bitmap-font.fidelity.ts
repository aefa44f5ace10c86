import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { type Finding, Findings } from '../../matrix/fidelity/findings';
import { fontDesign } from './font.proof';

/** Debian's Python, where python3-freetype (apt-test.txt) lives; the tools venv may be built on another Python. */
const DEBIAN_PYTHON = '/usr/bin/python3';
/** A bitmap glyph's edge may land one pixel either side of its designed box: the rasteriser rounds. */
export const PIXEL_TOLERANCE = 1;

/** What FreeType finds in a bitmap font: its strikes (pixels per em) and, in the largest, each character's lit pixels. */
export interface BitmapGlyphs {
  strikes: number[];
  /** The strike the glyphs were read from: the largest. */
  pixels: number;
  /** Character code → lit pixels as [x, y], y up from the baseline (the pixel's top edge). */
  glyphs: Map<number, [number, number][]>;
}

/** FreeType: every strike's size, then each sample character of the largest strike as a monochrome bitmap. */
const FREETYPE_READER = `
import json, sys
import freetype
face = freetype.Face(sys.argv[1])
if face.is_scalable or face.num_fixed_sizes == 0:
    sys.exit('not a bitmap-only font: FreeType finds outlines or no strike')
sizes = [size.y_ppem / 64 for size in face.available_sizes]
largest = max(range(len(sizes)), key=lambda i: sizes[i])
face.select_size(largest)
glyphs = {}
for code in json.loads(sys.argv[2]):
    if face.get_char_index(code) == 0:
        continue
    face.load_char(code, freetype.FT_LOAD_RENDER | freetype.FT_LOAD_TARGET_MONO)
    bitmap = face.glyph.bitmap
    lit = []
    for row in range(bitmap.rows):
        line = bitmap.buffer[row * bitmap.pitch:(row + 1) * bitmap.pitch]
        for col in range(bitmap.width):
            if (line[col // 8] >> (7 - col % 8)) & 1:
                lit.append([face.glyph.bitmap_left + col, face.glyph.bitmap_top - row])
    glyphs[code] = lit
print(json.dumps({'strikes': sizes, 'pixels': sizes[largest], 'glyphs': glyphs}))
`;

export async function readBitmapGlyphs(path: string, dir: string, signal: AbortSignal): Promise<BitmapGlyphs> {
  const script = join(dir, 'read-bitmap-font.py');
  await writeFile(script, FREETYPE_READER);
  const codes = JSON.stringify([...fontDesign().keys()]);
  const { stdout } = await runEngine({ command: DEBIAN_PYTHON, args: [script, path, codes], timeoutMs: 60_000, signal, memoryLimitMb: 0 }).catch((error: unknown) => {
    throw new Error(`FreeType could not read ${path} (needs Debian's python3-freetype, apt-test.txt): ${(error as Error).message}`);
  });
  const parsed = JSON.parse(stdout) as { strikes: number[]; pixels: number; glyphs: Record<string, [number, number][]> };
  return { strikes: parsed.strikes, pixels: parsed.pixels, glyphs: new Map(Object.entries(parsed.glyphs).map(([code, lit]) => [Number(code), lit])) };
}

/**
 * A bitmap output against its bitmap source, both read by FreeType (not
 * FontForge, bdftopcf or pcf2bdf, which wrote them): the same characters,
 * the same strikes (only the largest where the pair declares it keeps one),
 * every character's pixels identical, and each letter's pixels filling the
 * sample's designed box at the strike's size.
 */
export function compareBitmapGlyphs(source: BitmapGlyphs, output: BitmapGlyphs, note?: string): Finding[] {
  const findings = new Findings();
  findings.expect('reader', true, 'FreeType (python3-freetype), for the source and the output');
  const design = fontDesign();
  const show = (codes: number[]) => codes.map((code) => String.fromCodePoint(code)).join('') || 'none';
  const missing = [...design.keys()].filter((code) => !output.glyphs.has(code));
  findings.expect('character map', missing.length === 0, `${design.size - missing.length} of ${design.size} characters; missing: ${show(missing)}`);
  const oneStrike = note?.includes('only the largest');
  const wanted = oneStrike ? [source.pixels] : source.strikes;
  findings.expect(
    'strikes',
    wanted.length === output.strikes.length && wanted.every((size) => output.strikes.includes(size)),
    `source ${source.strikes.join(', ')} px, output ${output.strikes.join(', ')} px${oneStrike ? ' (the largest kept, as declared)' : ''}`,
  );
  const key = (lit: [number, number][]) =>
    lit
      .map(([x, y]) => `${x},${y}`)
      .sort()
      .join(' ');
  const changed = [...design.keys()].filter((code) => output.glyphs.has(code) && key(output.glyphs.get(code)!) !== key(source.glyphs.get(code) ?? []));
  findings.expect('pixels', changed.length === 0, changed.length === 0 ? `every character draws the source's pixels at ${output.pixels} px` : `changed: ${show(changed)}`);
  findings.expect('design', ...designedBoxes(output));
  return findings.list;
}

/** Each letter's lit pixels against its designed box scaled to the strike (1/1000 em → pixels). */
function designedBoxes(glyphs: BitmapGlyphs): [boolean, string] {
  const scale = glyphs.pixels / 1000;
  const wrong: string[] = [];
  let drawn = 0;
  for (const [code, box] of fontDesign()) {
    const lit = glyphs.glyphs.get(code);
    if (!lit) continue;
    if (box === null) {
      if (lit.length > 0) wrong.push(`${String.fromCodePoint(code)} should be empty`);
      continue;
    }
    if (lit.length === 0) {
      wrong.push(`${String.fromCodePoint(code)} draws nothing`);
      continue;
    }
    // A pixel at (x, y) covers x..x+1 and y-1..y.
    const found = [Math.min(...lit.map(([x]) => x)), Math.min(...lit.map(([, y]) => y)) - 1, Math.max(...lit.map(([x]) => x)) + 1, Math.max(...lit.map(([, y]) => y))];
    const expected = box.map((value) => value * scale);
    if (expected.some((value, i) => Math.abs(value - found[i]!) > PIXEL_TOLERANCE)) wrong.push(`${String.fromCodePoint(code)} fills ${found.join(',')} px`);
    else drawn += 1;
  }
  return [wrong.length === 0, wrong.length === 0 ? `${drawn} letters fill their designed box (±${PIXEL_TOLERANCE} px)` : `${wrong.length} wrong: ${wrong.slice(0, 6).join('; ')}`];
}

/** The content check of a pair between bitmap fonts: both files read by FreeType in a scratch folder next to the output. */
export async function checkBitmapFont(source: string, output: string, note: string | undefined, signal: AbortSignal): Promise<Finding[]> {
  const scratch = await mkdtemp(join(dirname(output), 'bitmap-fidelity-'));
  try {
    const [sourceGlyphs, outputGlyphs] = [await readBitmapGlyphs(source, scratch, signal), await readBitmapGlyphs(output, scratch, signal)];
    return compareBitmapGlyphs(sourceGlyphs, outputGlyphs, note);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
