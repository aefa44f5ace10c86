import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { expectBytes, expectText, head } from '../../matrix/output-checks';
import { type SampleMaker, cachedSampleMaker, copiedSampleProof } from '../../matrix/sample-cache';
import { packedSample } from './font-samples';
import { fontContentCheck } from './font.fidelity';
import { proofScratch } from '../../matrix/proof-scratch';

export const SAMPLE_FONT_NAME = 'TransmuteSample';
const GLYPH_RIGHT_BASE = 320;
const GLYPH_RIGHT_STEP = 20;

/** The sample's characters and the box each glyph's outline fills, in units of 1/1000 em. */
export function fontDesign(): Map<number, [number, number, number, number] | null> {
  const design = new Map<number, [number, number, number, number] | null>([[0x20, null]]);
  for (const code of [...range(0x41, 0x5a), ...range(0x61, 0x7a)]) design.set(code, [100, 0, GLYPH_RIGHT_BASE + (code % 11) * GLYPH_RIGHT_STEP, 700]);
  return design;
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Draws a small font with FontForge's Python API and saves it: space, A-Z and
 * a-z, each a box with a counter whose right edge and counter top depend on
 * the character code (fontDesign), so a dropped, swapped or distorted glyph shows.
 */
const MAKE_FONT = `
import fontforge, sys
font = fontforge.font()
font.fontname = '${SAMPLE_FONT_NAME}'
font.familyname = 'Transmute Sample'
font.fullname = 'Transmute Sample'
font.encoding = 'UnicodeFull'
for code in [0x20] + list(range(0x41, 0x5b)) + list(range(0x61, 0x7b)):
    glyph = font.createChar(code)
    glyph.width = 600
    if code == 0x20:
        continue
    right = ${GLYPH_RIGHT_BASE} + (code % 11) * ${GLYPH_RIGHT_STEP}
    top = 600 - (code % 7) * 50
    pen = glyph.glyphPen()
    pen.moveTo((100, 0)); pen.lineTo((100, 700)); pen.lineTo((right, 700)); pen.lineTo((right, 0)); pen.closePath()
    pen.moveTo((200, 100)); pen.lineTo((right - 100, 100)); pen.lineTo((right - 100, top)); pen.lineTo((200, top)); pen.closePath()
    pen = None
    glyph.correctDirection()
font.save(sys.argv[1])
`;

export function fontProof(): FamilyProof {
  let base: Promise<string> | undefined;
  const scratch = proofScratch('transmute-font-samples-');

  const baseFont = (signal: AbortSignal) =>
    (base ??= (async () => {
      const dir = await scratch.dir();
      const script = join(dir, 'make-font.py');
      await writeFile(script, MAKE_FONT);
      const path = join(dir, 'sample.sfd');
      await runEngine({ command: 'fontforge', args: ['-quiet', '-lang=py', '-script', script, path], timeoutMs: 60_000, signal });
      return path;
    })());

  const make: SampleMaker = cachedSampleMaker(async (format, signal) => {
    const sfd = await baseFont(signal);
    if (format === 'sfd') return sfd;
    const packed = await packedSample(format, sfd, signal);
    if (packed) return packed;
    const path = sfd.replace(/\.sfd$/, `.${format}`);
    await runEngine({ command: 'fontforge', args: ['-quiet', '-lang=ff', '-c', 'Open($1); Generate($2)', sfd, path], timeoutMs: 60_000, signal });
    return path;
  });

  return { ...copiedSampleProof('font', make, verifyFontOutput), checkContent: fontContentCheck(), optionChecks: [], dispose: scratch.dispose };
}

/** Magic bytes of the format, then FontForge must open it and find the sample's name. */
export async function verifyFontOutput(format: string, path: string): Promise<void> {
  const bytes = await head(path);
  switch (format) {
    case 'ttf':
      expectBytes(bytes, [0, 1, 0, 0], 0, 'TrueType font');
      break;
    case 'otf':
      expectBytes(bytes, 'OTTO', 0, 'OpenType CFF font');
      break;
    case 'woff':
      expectBytes(bytes, 'wOFF', 0, 'WOFF font');
      break;
    case 'woff2':
      expectBytes(bytes, 'wOF2', 0, 'WOFF2 font');
      break;
    case 'sfd':
      expectBytes(bytes, 'SplineFontDB', 0, 'FontForge font');
      break;
    case 'svg':
      await expectText(path, ['<svg', '<font', '<glyph'], 'SVG font');
      break;
    case 'pfb':
      expectBytes(bytes, [0x80, 0x01], 0, 'Type 1 binary font');
      break;
    case 'pfa':
      expectBytes(bytes, '%!PS-AdobeFont', 0, 'Type 1 ASCII font');
      break;
    case 'pt3':
      await expectText(path, ['%!PS-Adobe', '/FontType 3'], 'Type 3 font');
      break;
    case 't42':
      expectBytes(bytes, '%!PS-TrueTypeFont', 0, 'Type 42 font');
      break;
    case 'dfont':
      expectBytes(bytes, [0, 0, 1, 0], 0, 'Mac resource-fork font');
      break;
    case 'bdf':
      expectBytes(bytes, 'STARTFONT', 0, 'BDF bitmap font');
      break;
    case 'pcf':
      expectBytes(bytes, [1, 0x66, 0x63, 0x70], 0, 'PCF bitmap font');
      break;
    case 'otb':
      expectBytes(bytes, [0, 1, 0, 0], 0, 'OpenType bitmap font');
      break;
    case 'afm':
      await expectText(path, ['StartFontMetrics', SAMPLE_FONT_NAME, 'EndFontMetrics'], 'AFM metrics');
      return;
    default:
      throw new Error(`the font proof has no check for ${format}`);
  }
  const { stdout } = await runEngine({
    command: 'fontforge',
    args: ['-quiet', '-lang=ff', '-c', 'Open($1); Print($fontname); Print($firstfont)', path],
    timeoutMs: 60_000,
    signal: AbortSignal.timeout(60_000),
  });
  if (!stdout.includes(SAMPLE_FONT_NAME)) throw new Error(`FontForge reopened the ${format} file but it is not the sample font (${stdout.trim().slice(0, 200)})`);
}
