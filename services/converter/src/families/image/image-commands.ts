/**
 * Argument lists for the image engines: pure functions, no process spawned
 * here (image.family.ts runs them through runEngine). Every file argument is
 * prefixed with its coder or given after an option, so a file name can never
 * be read as an engine option or an ImageMagick pseudo-format.
 */

export interface Command {
  command: string;
  args: string[];
}

/** Debian's ImageMagick 6 binary by its versioned name (plain `convert` may be shadowed on PATH); IM 7's `magick` elsewhere. */
export const MAGICK_CANDIDATES = ['convert-im6.q16', 'magick', 'convert'] as const;
export const IDENTIFY_CANDIDATES = ['identify-im6.q16', 'identify'] as const;

const QUIET_FFMPEG = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
const QUIET_GS = ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dNOINTERPOLATE'];

/** Width and height from the header only (`-ping`), to refuse an oversized image before decoding it. */
export function magickPing(identify: string, coder: string, input: string): Command {
  return { command: identify, args: ['-ping', '-format', '%w %h\\n', `${coder}:${input}[0]`] };
}

/** First frame (or the flattened composite of a layered file) as PNG. */
export function magickDecode(magick: string, coder: string, input: string, output: string): Command {
  return { command: magick, args: [`${coder}:${input}[0]`, '-auto-orient', `png:${output}`] };
}

export function magickEncode(magick: string, coder: string, stage: string, output: string, quality: number | undefined): Command {
  const args = [`png:${stage}`];
  // Icons top out at 256 pixels a side.
  if (coder === 'ICO') args.push('-resize', '256x256>');
  // ImageMagick writes colour FITS as three planes that readers (itself included) take as three grey images: one grey plane instead.
  if (coder === 'FITS') args.push('-colorspace', 'gray');
  if (quality !== undefined) args.push('-quality', String(quality));
  args.push(`${coder}:${output}`);
  return { command: magick, args };
}

/** Raster to 1-bit for potrace: everything darker than `threshold` percent becomes ink. */
export function magickBitmap(magick: string, stage: string, output: string, threshold: number): Command {
  return {
    command: magick,
    args: [`png:${stage}`, '-background', 'white', '-alpha', 'remove', '-alpha', 'off', '-colorspace', 'gray', '-threshold', `${threshold}%`, `pbm:${output}`],
  };
}

export function potraceSvg(bitmap: string, output: string): Command {
  return { command: 'potrace', args: ['--svg', '--output', output, '--', bitmap] };
}

export function heifDecode(input: string, output: string): Command {
  return { command: 'heif-convert', args: [input, output] };
}

export function heifEncode(stage: string, output: string, quality: number): Command {
  return { command: 'heif-enc', args: ['--quality', String(quality), '--output', output, stage] };
}

export function jxlDecode(input: string, output: string): Command {
  return { command: 'djxl', args: [input, output] };
}

export function jxlEncode(stage: string, output: string, quality: number, lossless: boolean): Command {
  return { command: 'cjxl', args: [stage, output, ...(lossless ? ['--distance=0'] : [`--quality=${quality}`])] };
}

export function rsvgDecode(input: string, output: string): Command {
  return { command: 'rsvg-convert', args: ['--format', 'png', '--output', output, input] };
}

/** The first page at 150 dpi with transparency; EPS cropped to its bounding box. */
export function ghostscriptDecode(input: string, output: string, eps: boolean): Command {
  return {
    command: 'gs',
    args: [...QUIET_GS, '-sDEVICE=pngalpha', '-r150', '-dFirstPage=1', '-dLastPage=1', ...(eps ? ['-dEPSCrop'] : []), `-sOutputFile=${output}`, input],
  };
}

/**
 * A JPEG placed on a page of its own size (1 px = 1 pt) with Ghostscript's
 * viewjpeg.ps: pdfwrite passes the JPEG data through, so quality carries over.
 */
export function ghostscriptFromJpeg(device: string, jpeg: string, jpegDir: string, output: string): Command {
  const literal = jpeg.replace(/[\\()]/g, (char) => `\\${char}`);
  return {
    command: 'gs',
    args: [
      ...QUIET_GS,
      `-sDEVICE=${device}`,
      `-sOutputFile=${output}`,
      `--permit-file-read=${jpegDir}/`,
      'viewjpeg.ps',
      '-c',
      `(${literal}) << /PageSize 2 index viewJPEGgetsize 2 array astore >> setpagedevice viewJPEG showpage`,
    ],
  };
}

export function ffmpegDecode(input: string, output: string): Command {
  return { command: 'ffmpeg', args: [...QUIET_FFMPEG, '-i', `file:${input}`, '-frames:v', '1', '-update', '1', `file:${output}`] };
}

export function ffmpegEncode(stage: string, output: string): Command {
  return { command: 'ffmpeg', args: [...QUIET_FFMPEG, '-i', `file:${stage}`, '-frames:v', '1', '-update', '1', `file:${output}`] };
}

/** JPEG XR to TIFF with jxrlib's reference decoder. */
export function jxrDecode(input: string, output: string): Command {
  return { command: 'JxrDecApp', args: ['-i', input, '-o', output] };
}

/** An uncompressed TIFF to JPEG XR; jxrlib's quality runs 0-1, where 1 is lossless. */
export function jxrEncode(tiff: string, output: string, quality: number, lossless: boolean): Command {
  return { command: 'JxrEncApp', args: ['-i', tiff, '-o', output, '-q', lossless ? '1.0' : (Math.min(quality, 99) / 100).toFixed(2)] };
}

/** Every icon in an Apple icon family as PNG files in `dir`. */
export function icnsExtract(input: string, dir: string): Command {
  return { command: 'icns2png', args: ['-x', '-o', dir, input] };
}

/** A Netpbm reader: the file as an argument, PNM on stdout (runEngine writes it to a file). */
export function netpbmDecode(reader: string, input: string): Command {
  // No '--': several Netpbm readers take it for a file name; the path is absolute, never an option.
  return { command: reader, args: [input] };
}
