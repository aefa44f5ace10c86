import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import type { PairDeclaration } from '../family';

/**
 * Bitmap fonts: X11's BDF (text) and PCF (compiled), and OpenType bitmap-only
 * fonts (otb, an sfnt with EBDT/EBLC strikes and no outlines). They hold
 * pixels at fixed sizes, not outlines, so they convert among themselves only:
 * to an outline format FontForge would write glyphs with nothing to draw.
 * FontForge reads BDF and OTB and writes them; X11's `bdftopcf`
 * (xfonts-utils) compiles its BDF into PCF, and `pcf2bdf` turns PCF back into
 * BDF (FontForge's own PCF reader swaps the bytes of every character code:
 * "A" comes out as U+4100).
 */
export const BITMAP_FONT_FORMATS = ['bdf', 'pcf', 'otb'] as const;
export type BitmapFontFormat = (typeof BITMAP_FONT_FORMATS)[number];

export const isBitmapFont = (format: string): format is BitmapFontFormat => (BITMAP_FONT_FORMATS as readonly string[]).includes(format);

/** What otb → bdf / pcf loses when the font has several sizes (docs/decisions.md, "More readable formats"). */
export const ONE_STRIKE_LOSS = 'BDF and PCF hold one size: of several strikes, only the largest is kept';

export function bitmapFontPairs(): PairDeclaration[] {
  return BITMAP_FONT_FORMATS.flatMap((inputFormat) =>
    BITMAP_FONT_FORMATS.filter((outputFormat) => outputFormat !== inputFormat).map((outputFormat) => ({
      inputFormat,
      outputFormat,
      options: [],
      note: inputFormat === 'otb' && outputFormat !== 'otb' ? ONE_STRIKE_LOSS : undefined,
    })),
  );
}

type Run = (command: string, args: string[]) => Promise<unknown>;

/**
 * Converts between bitmap fonts in `scratch` (FontForge's script language, the
 * paths as arguments). FontForge names each BDF strike `<name>-<pixels>.bdf`,
 * so the result is looked up by that pattern.
 */
export async function convertBitmapFont(
  input: string,
  inputFormat: BitmapFontFormat,
  outputFormat: BitmapFontFormat,
  outputPath: string,
  scratch: string,
  run: Run,
): Promise<void> {
  if (inputFormat === 'pcf') {
    const bdf = join(scratch, 'from-pcf.bdf');
    await run('pcf2bdf', ['-o', bdf, input]);
    if (outputFormat === 'bdf') return moveResult(bdf, outputPath, outputFormat);
    input = bdf;
  }
  if (outputFormat === 'otb') {
    const otb = join(scratch, 'output.otb');
    await run('fontforge', ['-quiet', '-lang=ff', '-c', 'Open($1); Generate($2, "otb")', input, otb]);
    await moveResult(otb, outputPath, outputFormat);
    return;
  }
  const strikes = join(scratch, 'strikes');
  await mkdir(strikes);
  await run('fontforge', ['-quiet', '-lang=ff', '-c', 'Open($1); Generate($2, "bdf")', input, join(strikes, 'output.bdf')]);
  const bdf = await largestStrike(strikes);
  if (outputFormat === 'bdf') {
    await moveResult(bdf, outputPath, outputFormat);
    return;
  }
  const pcf = join(scratch, 'output.pcf');
  await run('bdftopcf', ['-o', pcf, bdf]);
  await moveResult(pcf, outputPath, outputFormat);
}

/** `output-16.bdf`, `output-24.bdf` ...: the one with the most pixels. */
async function largestStrike(dir: string): Promise<string> {
  const sizes = (await readdir(dir).catch(() => [] as string[]))
    .map((name) => ({ name, pixels: Number(/^output-(\d+)\.bdf$/.exec(name)?.[1]) }))
    .filter((strike) => strike.pixels > 0)
    .sort((a, b) => b.pixels - a.pixels);
  if (!sizes[0]) throw ServiceFailure.validation('FontForge wrote no bitmap strike: the input has no bitmaps at any size');
  return join(dir, sizes[0].name);
}

async function moveResult(from: string, to: string, format: string): Promise<void> {
  await rename(from, to).catch(() => {
    throw ServiceFailure.validation(`no ${format} file came out: the input may not be a bitmap font`);
  });
}
