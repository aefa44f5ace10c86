import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { type ContentCheck, type Finding, Findings } from '../../matrix/fidelity/findings';
import { toolsPython } from '../../matrix/fidelity/tools-python';
import { isBitmapFont } from './bitmap-fonts';
import { checkBitmapFont } from './bitmap-font.fidelity';
import { SAMPLE_FONT_NAME, fontDesign } from './font.proof';

/** A glyph's box may move this much (1/1000 em): TrueType rasterisers round, the design steps by 20. */
export const OUTLINE_TOLERANCE = 9;

export type Box = [number, number, number, number];

/** What a reader finds in a font: each character it maps, and the box its outline fills (null: no outline). */
export interface GlyphTable {
  reader: string;
  glyphs: Map<number, Box | null>;
  /** Closed contours per character, where the reader counts them. */
  contours?: Map<number, number>;
}

/** fontTools: the character map (cmap) and each glyph's outline drawn through a pen, in 1/1000 em. */
const FONTTOOLS_READER = `
import json, sys
from fontTools.ttLib import TTFont
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import RecordingPen
path, kind = sys.argv[1], sys.argv[2]
font = TTFont(path, res_name_or_index=0 if kind == 'dfont' else None)
scale = 1000 / font['head'].unitsPerEm
glyphs = font.getGlyphSet()
table = {}
for code, name in font.getBestCmap().items():
    bounds, recording = BoundsPen(glyphs), RecordingPen()
    glyphs[name].draw(bounds)
    glyphs[name].draw(recording)
    box = [round(v * scale) for v in bounds.bounds] if bounds.bounds else None
    table[code] = {'box': box, 'contours': sum(1 for op, _ in recording.value if op == 'closePath')}
print(json.dumps(table))
`;

/** Ghostscript: loads the font, sets each character at 1000 units and measures the path charpath draws. */
const GHOSTSCRIPT_READER = `
/fontname exch def
fontname findfont 1000 scalefont setfont
/enc currentfont /Encoding get def
% Glyph programs by name: CharStrings (Type 1, Type 42) or CharProcs (Type 3).
/programs currentfont dup /CharStrings known { /CharStrings get } { dup /CharProcs known { /CharProcs get } { pop null } ifelse } ifelse def
/str 1 string def
0 1 255 {
  /code exch def
  /name enc code get def
  name /.notdef ne programs null eq { true } { programs name known } ifelse and {
    str 0 code put
    code =only ( ) print
    { newpath 0 0 moveto str true charpath flattenpath pathbbox
      4 -1 roll round cvi =only ( ) print 3 -1 roll round cvi =only ( ) print exch round cvi =only ( ) print round cvi =
    } stopped { (none) = } if
  } if
} for
`;

const TIMEOUT_MS = 60_000;

export async function readGlyphs(path: string, format: string, dir: string, signal: AbortSignal): Promise<GlyphTable> {
  switch (format) {
    case 'ttf':
    case 'otf':
    case 'woff':
    case 'woff2':
    case 'dfont': {
      const script = join(dir, 'read-font.py');
      await writeFile(script, FONTTOOLS_READER);
      const { stdout } = await runEngine({ command: await toolsPython(), args: [script, path, format], timeoutMs: TIMEOUT_MS, signal, memoryLimitMb: 0 });
      const parsed = JSON.parse(stdout) as Record<string, { box: Box | null; contours: number }>;
      const entries = Object.entries(parsed).map(([code, glyph]) => [Number(code), glyph] as const);
      return { reader: 'fontTools', glyphs: new Map(entries.map(([code, glyph]) => [code, glyph.box])), contours: new Map(entries.map(([code, glyph]) => [code, glyph.contours])) };
    }
    case 'pfa':
    case 'pfb':
    case 't42':
    case 'pt3': {
      const script = join(dir, 'read-font.ps');
      await writeFile(script, GHOSTSCRIPT_READER);
      // A PFB's binary segments need Ghostscript's font loader; the text formats are PostScript programs.
      const load = format === 'pfb' ? `(${path}) (r) file .loadfont` : `(${path}) run`;
      const { stdout } = await runEngine({
        command: 'gs',
        args: ['-q', '-dNODISPLAY', '-dSAFER', `--permit-file-read=${dirname(path)}/`, `--permit-file-read=${dir}/`, '-c', `${load} /${SAMPLE_FONT_NAME}`, '-f', script],
        timeoutMs: TIMEOUT_MS,
        signal,
      });
      const glyphs = new Map<number, Box | null>();
      for (const line of stdout.trim().split('\n')) {
        const [code, ...rest] = line.trim().split(/\s+/);
        if (!code || !/^\d+$/.test(code)) continue;
        const box = rest.map(Number) as Box;
        // A glyph that draws nothing leaves the current point where it was: an empty box.
        glyphs.set(Number(code), rest[0] === 'none' || (box[0] === box[2] && box[1] === box[3]) ? null : box);
      }
      return { reader: 'Ghostscript', glyphs };
    }
    case 'svg':
      return readSvgFont(await readFile(path, 'utf8'));
    case 'sfd':
      return readSfd(await readFile(path, 'utf8'));
    case 'afm':
      return readAfm(await readFile(path, 'utf8'));
    default:
      throw new Error(`no glyph reader for ${format} fonts`);
  }
}

/** An SVG font: each <glyph unicode="..." d="..."> and the box of its path's points. */
export function readSvgFont(svg: string): GlyphTable {
  const glyphs = new Map<number, Box | null>();
  // A glyph's outline is its d attribute, or paths inside it (FontForge writes Type 3 glyphs so).
  for (const match of svg.matchAll(/<glyph\b([^>]*?)(?:\/>|>([\s\S]*?)<\/glyph>)/g)) {
    const attributes = match[1]!;
    const inner = [...(match[2] ?? '').matchAll(/\sd="([^"]*)"/g)].map((path) => path[1]!);
    const unicode = /unicode="([^"]*)"/.exec(attributes)?.[1];
    if (!unicode) continue;
    const text = unicode
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    if ([...text].length !== 1) continue;
    const d = [/\sd="([^"]*)"/.exec(` ${attributes}`)?.[1], ...inner].filter(Boolean).join(' ');
    glyphs.set(text.codePointAt(0)!, d ? pathBox(d) : null);
  }
  return { reader: 'the SVG font itself (glyph elements)', glyphs };
}

/** The box of an SVG path's points, absolute and relative commands alike (control points included). */
export function pathBox(d: string): Box | null {
  const tokens = d.match(/[a-zA-Z]|-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
  const xs: number[] = [];
  const ys: number[] = [];
  let [x, y, startX, startY] = [0, 0, 0, 0];
  let command = '';
  const take = () => Number(tokens.shift());
  while (tokens.length > 0) {
    if (/[a-zA-Z]/.test(tokens[0]!)) command = tokens.shift()!;
    const relative = command === command.toLowerCase();
    const upper = command.toUpperCase();
    const point = (px: number, py: number) => {
      xs.push(relative ? x + px : px);
      ys.push(relative ? y + py : py);
    };
    switch (upper) {
      case 'M':
      case 'L':
      case 'T': {
        const [px, py] = [take(), take()];
        point(px, py);
        [x, y] = relative ? [x + px, y + py] : [px, py];
        if (upper === 'M') [startX, startY] = [x, y];
        break;
      }
      case 'H': {
        const px = take();
        x = relative ? x + px : px;
        xs.push(x);
        ys.push(y);
        break;
      }
      case 'V': {
        const py = take();
        y = relative ? y + py : py;
        xs.push(x);
        ys.push(y);
        break;
      }
      case 'C':
      case 'S':
      case 'Q': {
        const pairs = upper === 'C' ? 3 : 2;
        const coords = Array.from({ length: pairs * 2 }, take);
        for (let i = 0; i < coords.length; i += 2) point(coords[i]!, coords[i + 1]!);
        [x, y] = relative ? [x + coords[coords.length - 2]!, y + coords[coords.length - 1]!] : [coords[coords.length - 2]!, coords[coords.length - 1]!];
        break;
      }
      case 'Z':
        [x, y] = [startX, startY];
        break;
      default:
        tokens.shift();
    }
  }
  if (xs.length === 0) return null;
  return [Math.round(Math.min(...xs)), Math.round(Math.min(...ys)), Math.round(Math.max(...xs)), Math.round(Math.max(...ys))];
}

/** FontForge's own text format: each StartChar's Encoding and the points of its SplineSet. */
export function readSfd(sfd: string): GlyphTable {
  const glyphs = new Map<number, Box | null>();
  const contours = new Map<number, number>();
  for (const block of sfd.split('StartChar:').slice(1)) {
    const unicode = Number(/^Encoding:\s+-?\d+\s+(-?\d+)/m.exec(block)?.[1] ?? -1);
    if (unicode < 0) continue;
    const spline = /SplineSet\n([\s\S]*?)EndSplineSet/.exec(block)?.[1] ?? '';
    const xs: number[] = [];
    const ys: number[] = [];
    let count = 0;
    for (const line of spline.split('\n')) {
      const match = /^\s*([-\d.\s]+?)\s+([mlc])\s/.exec(`${line} `);
      if (!match) continue;
      const numbers = match[1]!.trim().split(/\s+/).map(Number);
      for (let i = 0; i + 1 < numbers.length; i += 2) {
        xs.push(numbers[i]!);
        ys.push(numbers[i + 1]!);
      }
      if (match[2] === 'm') count += 1;
    }
    glyphs.set(unicode, xs.length > 0 ? [Math.round(Math.min(...xs)), Math.round(Math.min(...ys)), Math.round(Math.max(...xs)), Math.round(Math.max(...ys))] : null);
    contours.set(unicode, count);
  }
  return { reader: 'the SFD text itself (SplineSet points)', glyphs, contours };
}

/** Adobe font metrics: each character's code and bounding box (metrics only; no outlines). */
export function readAfm(afm: string): GlyphTable {
  const glyphs = new Map<number, Box | null>();
  for (const match of afm.matchAll(/^C\s+(-?\d+)\s*;.*?\bB\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)/gm)) {
    const code = Number(match[1]);
    if (code < 0) continue;
    const box = [match[2], match[3], match[4], match[5]].map((value) => Math.round(Number(value))) as Box;
    glyphs.set(code, box[0] === box[2] && box[1] === box[3] ? null : box);
  }
  return { reader: 'the AFM text itself (C and B entries)', glyphs };
}

/** Compares a glyph table with the sample's design: the same characters, each outline filling its box. */
export function compareGlyphs(table: GlyphTable, note?: string): Finding[] {
  const findings = new Findings();
  const design = fontDesign();
  // A declared loss of empty glyphs (a Type 3 input) is held to the rest.
  if (note?.includes('without an outline')) for (const [code, box] of design) if (box === null && !table.glyphs.has(code)) design.delete(code);
  findings.expect('reader', true, table.reader);
  const missing = [...design.keys()].filter((code) => !table.glyphs.has(code));
  const extra = [...table.glyphs.keys()].filter((code) => !design.has(code) && table.glyphs.get(code) !== null);
  const show = (codes: number[]) => codes.map((code) => String.fromCodePoint(code)).join('') || 'none';
  findings.expect(
    'character map',
    missing.length === 0 && extra.length === 0,
    `${design.size - missing.length} of ${design.size} characters; missing: ${show(missing)}; extra: ${show(extra)}`,
  );
  const wrong: string[] = [];
  let drawn = 0;
  for (const [code, box] of design) {
    if (!table.glyphs.has(code)) continue;
    const found = table.glyphs.get(code) ?? null;
    if (box === null) {
      if (found !== null) wrong.push(`${String.fromCodePoint(code)} should be empty`);
      continue;
    }
    if (found === null) {
      wrong.push(`${String.fromCodePoint(code)} has no outline`);
      continue;
    }
    if (box.some((value, i) => Math.abs(value - found[i]!) > OUTLINE_TOLERANCE)) wrong.push(`${String.fromCodePoint(code)} fills ${found.join(',')} not ${box.join(',')}`);
    else drawn += 1;
  }
  const outlined = [...design.values()].filter((box) => box !== null).length;
  findings.expect(
    'outlines',
    wrong.length === 0,
    wrong.length === 0 ? `${drawn} of ${outlined} glyphs draw their designed box (±${OUTLINE_TOLERANCE}/1000 em)` : `${wrong.length} wrong: ${wrong.slice(0, 6).join('; ')}`,
  );
  if (table.contours) {
    const off = [...design.entries()]
      .filter(([code, box]) => box !== null && table.contours!.has(code) && table.contours!.get(code) !== 2)
      .map(([code]) => String.fromCodePoint(code));
    findings.expect('contours', off.length === 0, off.length === 0 ? 'every glyph has its 2 contours' : `not 2 contours: ${off.join('')}`);
  }
  return findings.list;
}

/**
 * The font family's content check: the output's glyphs read by a reader
 * other than FontForge (fontTools, Ghostscript, or the format's own text for
 * SVG, SFD and AFM) and compared with the sample's design. Bitmap fonts
 * are read by FreeType and compared pixel by pixel with their source.
 */
export function fontContentCheck(): ContentCheck {
  return async (pair, source, outputPath, signal) => {
    if (isBitmapFont(pair.outputFormat)) return checkBitmapFont(source, outputPath, pair.note, signal).catch((error: Error) => [readFailure(error)]);
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      return compareGlyphs(await readGlyphs(outputPath, pair.outputFormat, scratch, signal), pair.note);
    } catch (error) {
      return [readFailure(error as Error)];
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

const readFailure = (error: Error): Finding => ({ check: 'read', passed: false, detail: error.message.replace(/\s+/g, ' ').slice(0, 300) });
