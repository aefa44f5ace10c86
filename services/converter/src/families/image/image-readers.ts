import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { resolveCommand } from '../../engine/resolve-command';
import { runEngine } from '../../engine/run-engine';
import { IDENTIFY_CANDIDATES, MAGICK_CANDIDATES } from './image-commands';
import { IMAGE_DECODERS, IMAGE_ENCODERS } from './image-formats';

/**
 * Readers the fidelity check decodes images with, chosen so that the program
 * that wrote (or decoded) a file is not the one that reads it back where
 * another exists. Test-side code: the family never uses these.
 */
export type ReaderEngine = 'libvips' | 'ImageMagick' | 'ffmpeg' | 'Netpbm' | 'poppler' | 'Ghostscript' | 'libheif' | 'libjxl' | 'jxrlib' | 'icnsutils' | 'librsvg';

/** ffmpeg's image decoder for each format it reads. */
const FFMPEG_DECODERS: Record<string, string> = {
  bmp: 'bmp',
  dib: 'bmp',
  dds: 'dds',
  dpx: 'dpx',
  jp2: 'jpeg2000',
  j2k: 'jpeg2000',
  j2c: 'jpeg2000',
  jpc: 'jpeg2000',
  jxl: 'libjxl',
  pam: 'pam',
  pbm: 'pbm',
  pgm: 'pgm',
  ppm: 'ppm',
  pcx: 'pcx',
  qoi: 'qoi',
  sgi: 'sgi',
  bw: 'sgi',
  rgb: 'sgi',
  rgba: 'sgi',
  ras: 'sunrast',
  sun: 'sunrast',
  im1: 'sunrast',
  im8: 'sunrast',
  im24: 'sunrast',
  rs: 'sunrast',
  im32: 'sunrast',
  tga: 'targa',
  xbm: 'xbm',
  xwd: 'xwd',
  vbn: 'vbn',
  exr: 'exr',
  pix: 'alias_pix',
  jls: 'jpegls',
  phm: 'phm',
  pgmyuv: 'pgmyuv',
};

/** Netpbm's readers for formats ffmpeg does not decode. */
const NETPBM_READERS: Record<string, string[]> = {
  ico: ['winicontopam'],
  wbmp: ['wbmptopbm'],
  pfm: ['pfmtopam'],
};
/**
 * Not read by ffmpeg, though it decodes them: its XPM decoder reads ImageMagick's 16-bit
 * colours (#RRRRGGGGBBBB) as black, and Netpbm's xpmtoppm drops XPM's transparency, so
 * ImageMagick (the writer) reads XPM, and the report says so.
 */
const NOT_BY_FFMPEG = new Set(['xpm']);
/** Formats ffmpeg reads through their own demuxer rather than image2 (none yet: its FITS reader takes no colour planes). */
const FFMPEG_DEMUXERS: Record<string, string> = {};

const SHARP_FORMATS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'jfif', 'jfi', 'jif', 'webp', 'gif', 'tif', 'tiff', 'btf', 'tf8', 'avif', 'svg', 'v', 'vips']);
/** BigTIFF: ImageMagick's TIFF coder reads it too (its TIFF64 coder wrote the samples). */
const BIGTIFF_FORMATS = new Set(['btf', 'tf8']);
const GHOSTSCRIPT_FORMATS = new Set(['eps', 'epsf', 'epsi', 'ps', 'ai']);

/** The engine that wrote an output format, or decoded an input one, in the family. */
export function familyEngine(format: string, side: 'input' | 'output'): ReaderEngine {
  const engine = side === 'output' ? IMAGE_ENCODERS[format]?.engine : IMAGE_DECODERS[format]?.engine;
  switch (engine) {
    case 'sharp':
      return 'libvips';
    case 'magick':
      return 'ImageMagick';
    case 'ffmpeg':
      return 'ffmpeg';
    case 'netpbm':
      return 'Netpbm';
    case 'heif':
      return 'libheif';
    case 'jxl':
      return 'libjxl';
    case 'jxr':
      return 'jxrlib';
    case 'icns':
      return 'icnsutils';
    case 'rsvg':
      return 'librsvg';
    case 'ghostscript':
      return 'Ghostscript';
    case 'potrace':
      return 'librsvg';
    default:
      return 'ImageMagick';
  }
}

/** Readers that can decode `format`, best first. */
export function readersOf(format: string): ReaderEngine[] {
  const readers: ReaderEngine[] = [];
  if (SHARP_FORMATS.has(format)) readers.push('libvips');
  if (format === 'pdf') readers.push('poppler');
  if (GHOSTSCRIPT_FORMATS.has(format) || format === 'pdf') readers.push('Ghostscript');
  if (format === 'svgz') readers.push('librsvg');
  if (FFMPEG_DECODERS[format] && !NOT_BY_FFMPEG.has(format)) readers.push('ffmpeg');
  if (NETPBM_READERS[format] || IMAGE_DECODERS[format]?.engine === 'netpbm') readers.push('Netpbm');
  if (['heic', 'heif', 'hif', 'avif'].includes(format)) readers.push('libheif');
  if (format === 'jxl') readers.push('libjxl');
  if (['jxr', 'wdp', 'hdp'].includes(format)) readers.push('jxrlib');
  if (format === 'icns') readers.push('icnsutils');
  if (
    IMAGE_DECODERS[format]?.engine === 'magick' ||
    IMAGE_ENCODERS[format]?.engine === 'magick' ||
    ['avif', 'heic', 'heif', 'hif', 'webp', 'gif', 'png', 'jpg', 'tiff', 'tif', 'jpeg'].includes(format) ||
    BIGTIFF_FORMATS.has(format)
  ) {
    readers.push('ImageMagick');
  }
  return [...new Set(readers)];
}

/**
 * Readers that must come first whatever wrote the file, and why: ImageMagick 6
 * reads a HEIC's colour but drops its alpha plane (every pixel opaque), so
 * libheif's heif-convert, a program apart from the heif-enc that wrote it, reads HEIC.
 */
export const PREFERRED_READERS: Record<string, { reader: ReaderEngine; why: string }> = {
  heic: { reader: 'libheif', why: 'ImageMagick drops the alpha plane of HEIC' },
  heif: { reader: 'libheif', why: 'ImageMagick drops the alpha plane of HEIC' },
  hif: { reader: 'libheif', why: 'ImageMagick drops the alpha plane of HEIC' },
};

/** Readers for a file, those other than `avoid` (its writer or decoder) first; the writer itself last, if it reads. */
export function readerOrder(format: string, avoid: ReaderEngine): ReaderEngine[] {
  const readers = readersOf(format);
  if (readers.length === 0) throw new Error(`no reader for ${format} images`);
  const preferred = PREFERRED_READERS[format]?.reader;
  const ordered = [...readers.filter((reader) => reader !== avoid), ...readers.filter((reader) => reader === avoid)];
  return preferred ? [preferred, ...ordered.filter((reader) => reader !== preferred)] : ordered;
}

export interface Decoded {
  /** PNG files, one per frame (or page) read. */
  frames: string[];
  /** Frames (or pages) the file holds, as its reader counts them. */
  frameCount: number;
}

const TIMEOUT_MS = 60_000;
let magick: Promise<{ convert: string; identify: string }> | undefined;

/**
 * Decodes `path` (a `format` file) with `reader` into PNG files in a fresh
 * folder under `dir`: the first frame, or all of them when `allFrames`.
 * Vector and page formats are rendered at `dpi` (the family renders at 150).
 */
export async function decodeImage(
  path: string,
  format: string,
  reader: ReaderEngine,
  dir: string,
  signal: AbortSignal,
  options: { dpi?: number; allFrames?: boolean } = {},
): Promise<Decoded> {
  const out = await mkdtemp(join(dir, `read-${reader.toLowerCase()}-`));
  const png = join(out, 'frame.png');
  const run = (command: string, args: string[], extra: { stdoutFile?: string } = {}) => runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal, cwd: out, ...extra });
  const dpi = options.dpi ?? 150;
  switch (reader) {
    case 'libvips': {
      const meta = await sharp(path, { limitInputPixels: false }).metadata();
      const frameCount = meta.pages ?? 1;
      const wanted = options.allFrames ? frameCount : 1;
      const frames: string[] = [];
      for (let page = 0; page < wanted; page += 1) {
        const file = join(out, `frame-${page}.png`);
        await sharp(path, { page, density: format === 'svg' ? 72 : undefined, limitInputPixels: false })
          .png()
          .toFile(file);
        frames.push(file);
      }
      return { frames, frameCount };
    }
    case 'ImageMagick': {
      const { convert, identify } = await magickCommands();
      const coder = magickCoder(format);
      const { stdout } = await run(identify, ['-format', '%n\\n', `${coder}:${path}`]);
      const frameCount = Number(stdout.trim().split('\n')[0]) || 1;
      if (options.allFrames && frameCount > 1) {
        await run(convert, [`${coder}:${path}`, '-coalesce', `png:${join(out, 'frame-%03d.png')}`]);
        return { frames: (await readdir(out)).sort().map((name) => join(out, name)), frameCount };
      }
      await run(convert, [`${coder}:${path}[0]`, `png:${png}`]);
      return { frames: [png], frameCount };
    }
    case 'ffmpeg': {
      const decoder = FFMPEG_DECODERS[format];
      if (!decoder) throw new Error(`ffmpeg reads no ${format} images`);
      const demuxer = FFMPEG_DEMUXERS[format] ? ['-f', FFMPEG_DEMUXERS[format]] : ['-f', 'image2', '-c:v', decoder];
      await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...demuxer, '-i', `file:${path}`, '-frames:v', '1', '-update', '1', `file:${png}`]);
      return { frames: [png], frameCount: 1 };
    }
    case 'Netpbm': {
      const command = NETPBM_READERS[format] ?? [IMAGE_DECODERS[format]?.engine === 'netpbm' ? (IMAGE_DECODERS[format] as { reader: string }).reader : ''];
      if (!command[0]) throw new Error(`Netpbm reads no ${format} images`);
      const pnm = join(out, 'frame.pnm');
      await run(command[0], [...command.slice(1), path], { stdoutFile: pnm });
      // libvips reads no PNM; ImageMagick only rewraps Netpbm's output as PNG.
      const { convert } = await magickCommands();
      await run(convert, [`pnm:${pnm}[0]`, `png:${png}`]);
      return { frames: [png], frameCount: 1 };
    }
    case 'poppler': {
      const { stdout } = await run('pdfinfo', [path]);
      const frameCount = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
      await run('pdftocairo', ['-png', '-singlefile', '-transp', '-r', String(dpi), '-f', '1', '-l', '1', path, join(out, 'frame')]);
      return { frames: [png], frameCount };
    }
    case 'Ghostscript': {
      const eps = GHOSTSCRIPT_FORMATS.has(format) && format !== 'ps' && format !== 'ai';
      await run('gs', [
        '-q',
        '-dSAFER',
        '-dBATCH',
        '-dNOPAUSE',
        '-sDEVICE=pngalpha',
        `-r${dpi}`,
        '-dFirstPage=1',
        '-dLastPage=1',
        ...(eps ? ['-dEPSCrop'] : []),
        `-sOutputFile=${png}`,
        path,
      ]);
      return { frames: [png], frameCount: 1 };
    }
    case 'librsvg':
      await run('rsvg-convert', ['--format', 'png', '--output', png, path]);
      return { frames: [png], frameCount: 1 };
    case 'libheif':
      await run('heif-convert', [path, png]);
      return { frames: [png], frameCount: 1 };
    case 'libjxl':
      await run('djxl', [path, png]);
      return { frames: [png], frameCount: 1 };
    case 'jxrlib': {
      const tiff = join(out, 'frame.tif');
      await run('JxrDecApp', ['-i', path, '-o', tiff]);
      await sharp(tiff).png().toFile(png);
      return { frames: [png], frameCount: 1 };
    }
    case 'icnsutils': {
      await run('icns2png', ['-x', '-o', out, path]);
      const icons = (await readdir(out)).filter((name) => name.endsWith('.png'));
      const sized = await Promise.all(icons.map(async (name) => ({ name, meta: await sharp(join(out, name)).metadata() })));
      const largest = sized.sort((a, b) => (b.meta.width ?? 0) * (b.meta.height ?? 0) - (a.meta.width ?? 0) * (a.meta.height ?? 0))[0];
      if (!largest) throw new Error('icns2png found no icon');
      return { frames: [join(out, largest.name)], frameCount: icons.length };
    }
  }
}

function magickCoder(format: string): string {
  const decoder = IMAGE_DECODERS[format];
  if (decoder?.engine === 'magick') return decoder.coder;
  const encoder = IMAGE_ENCODERS[format];
  if (encoder?.engine === 'magick') return encoder.coder;
  return { jpg: 'JPEG', jpeg: 'JPEG', tif: 'TIFF', btf: 'TIFF', tf8: 'TIFF', heif: 'HEIC', hif: 'HEIC' }[format] ?? format.toUpperCase();
}

async function magickCommands(): Promise<{ convert: string; identify: string }> {
  magick ??= (async () => {
    const first = async (candidates: readonly string[]) => {
      for (const candidate of candidates) if (await resolveCommand(candidate)) return candidate;
      return candidates[0]!;
    };
    return { convert: await first(MAGICK_CANDIDATES), identify: await first(IDENTIFY_CANDIDATES) };
  })();
  return magick;
}
