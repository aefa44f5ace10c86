import { spawnSync } from 'node:child_process';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { resolveCommand } from '../../engine/resolve-command';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { head as readHead } from '../../matrix/output-checks';
import { IDENTIFY_CANDIDATES, MAGICK_CANDIDATES } from './image-commands';
import { IMAGE_DECODERS, IMAGE_ENCODERS } from './image-formats';
import { imageContentCheck } from './image.fidelity';
import { IMAGE_OPTION_CHECKS } from './image.option-checks';
import { IMAGE_OPTION_HAS_NO_EFFECT } from './image-options';

const WIDTH = 64;
const HEIGHT = 48;
const ENGINE_TIMEOUT_MS = 60_000;

/**
 * A small picture with colour and detail on the left, and on the right a
 * transparent strip holding a half-transparent square (so alpha is there to
 * keep), drawn as SVG and rasterised by libvips; `frame` moves the circle, so
 * the frames of an animated sample differ and a lost frame shows.
 */
const pictureSvg = (frame = 0) => `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#d01060"/><stop offset="1" stop-color="#1060d0"/></linearGradient></defs>
  <rect width="44" height="${HEIGHT}" fill="url(#g)"/>
  <circle cx="${22 + frame * 8}" cy="24" r="14" fill="#ffd000"/>
  <rect x="44" y="6" width="16" height="16" fill="#000" fill-opacity="0.5"/>
  <path d="M4 44 L60 30" stroke="#fff" stroke-width="3"/>
</svg>`;
const PICTURE_SVG = pictureSvg();
/** Frames of the animated samples (gif, webp, apng, mng). */
const ANIMATION_FRAMES = 3;
const ANIMATED_SAMPLES = new Set(['gif', 'webp', 'apng', 'mng']);

/** A one-page PostScript drawing, written as text: Ghostscript turns it into PDF and EPS samples. */
const PICTURE_PS = `%!PS-Adobe-3.0 EPSF-3.0
%%BoundingBox: 0 0 ${WIDTH} ${HEIGHT}
0.8 0.1 0.4 setrgbcolor 0 0 ${WIDTH} ${HEIGHT} rectfill
1 0.8 0 setrgbcolor 22 24 14 0 360 arc fill
0 0 0 setrgbcolor 44 26 16 16 rectfill
showpage
%%EOF
`;

/** Netpbm writers that make the samples its readers are proven on. */
/** `size`: the only picture size the format holds (Atari screens, the SBIG ST-4 camera). */
/** `seeks`: the writer seeks back in its output, which a pipe cannot do, so it writes straight into the file. */
const NETPBM_WRITERS: Record<string, { command: string; input: 'ppm' | 'pgm' | 'pbm'; size?: string; seeks?: boolean }> = {
  ilbm: { command: 'ppmtoilbm', input: 'ppm' },
  iff: { command: 'ppmtoilbm', input: 'ppm' },
  lbm: { command: 'ppmtoilbm', input: 'ppm' },
  pi1: { command: 'ppmtopi1', input: 'ppm', size: '320x200' },
  pi3: { command: 'pbmtopi3', input: 'pbm', size: '320x200' },
  mac: { command: 'pbmtomacp', input: 'pbm' },
  macp: { command: 'pbmtomacp', input: 'pbm' },
  pntg: { command: 'pbmtomacp', input: 'pbm' },
  mgr: { command: 'pbmtomgr', input: 'pbm' },
  mda: { command: 'pbmtomda', input: 'pbm' },
  atk: { command: 'pbmtoatk', input: 'pbm' },
  cmuwm: { command: 'pbmtocmuwm', input: 'pbm' },
  ybm: { command: 'pbmtoybm', input: 'pbm' },
  mrf: { command: 'pbmtomrf', input: 'pbm' },
  pj: { command: 'ppmtopj', input: 'ppm' },
  sir: { command: 'pnmtosir', input: 'ppm' },
  rle: { command: 'pnmtorle', input: 'ppm' },
  lispm: { command: 'pgmtolispm', input: 'pgm' },
  fs: { command: 'pgmtofs', input: 'pgm' },
  spu: { command: 'ppmtospu', input: 'ppm', size: '320x200' },
  st4: { command: 'pgmtost4', input: 'pgm', size: '192x165' },
  neo: { command: 'ppmtoneo', input: 'ppm', size: '320x200', seeks: true },
  leaf: { command: 'ppmtoleaf', input: 'ppm' },
  img: { command: 'pbmtogem', input: 'pbm' },
};

/** Signatures of outputs checked by their bytes. */
const MAGIC: Record<string, (bytes: Buffer) => boolean> = {
  heic: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /hei[cx]|mif1|msf1/.test(b.subarray(8, 12).toString('latin1')),
  jxl: (b) => (b[0] === 0xff && b[1] === 0x0a) || b.subarray(4, 8).toString('latin1') === 'JXL ',
  qoi: (b) => b.subarray(0, 4).toString('latin1') === 'qoif',
  exr: (b) => b.readUInt32LE(0) === 20000630,
  jxr: (b) => b[0] === 0x49 && b[1] === 0x49 && b[2] === 0xbc,
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  eps: (b) => b.subarray(0, 4).toString('latin1') === '%!PS' && b.toString('latin1', 0, 40).includes('EPSF'),
  ps: (b) => b.subarray(0, 4).toString('latin1') === '%!PS',
  bmp: (b) => b.subarray(0, 2).toString('latin1') === 'BM',
  ico: (b) => b.readUInt32BE(0) === 0x00000100,
  psd: (b) => b.subarray(0, 4).toString('latin1') === '8BPS',
  miff: (b) => b.subarray(0, 14).toString('latin1') === 'id=ImageMagick',
  dds: (b) => b.subarray(0, 4).toString('latin1') === 'DDS ',
  jp2: (b) => b.subarray(4, 8).toString('latin1') === 'jP  ',
  j2k: (b) => b.readUInt32BE(0) === 0xff4fff51,
  fits: (b) => b.subarray(0, 6).toString('latin1') === 'SIMPLE',
  sgi: (b) => b.readUInt16BE(0) === 474,
  ras: (b) => b.readUInt32BE(0) === 0x59a66a95,
  dpx: (b) => ['SDPX', 'XPDS'].includes(b.subarray(0, 4).toString('latin1')),
  hdr: (b) => b.subarray(0, 2).toString('latin1') === '#?',
  pcx: (b) => b[0] === 0x0a,
  xpm: (b) => b.toString('latin1', 0, 20).includes('XPM'),
  xbm: (b) => b.toString('latin1', 0, 40).includes('#define'),
  ppm: (b) => b.subarray(0, 2).toString('latin1') === 'P6',
  pgm: (b) => b.subarray(0, 2).toString('latin1') === 'P5',
  pbm: (b) => b.subarray(0, 2).toString('latin1') === 'P4',
  pnm: (b) => /^P[1-6]/.test(b.subarray(0, 2).toString('latin1')),
  pam: (b) => b.subarray(0, 2).toString('latin1') === 'P7',
  pfm: (b) => /^P[Ff]/.test(b.subarray(0, 2).toString('latin1')),
};

/** What libvips must report for the outputs it reads itself. */
const SHARP_FORMAT: Record<string, string> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', gif: 'gif', tif: 'tiff', tiff: 'tiff', avif: 'heif' };

/**
 * Samples are drawn by libvips from SVG text and written by the engine that
 * owns each format (ImageMagick, libheif, libjxl, ffmpeg, Ghostscript,
 * libvips); outputs are checked by their signature and decoded by a reader
 * other than the writer where one exists (libvips, ImageMagick, pdfinfo).
 */
export function imageProof(): FamilyProof {
  const tools = resolveMagick();
  const run = (command: string, args: string[], signal: AbortSignal) => runEngine({ command, args, timeoutMs: ENGINE_TIMEOUT_MS, signal });

  return {
    family: 'image',
    checkContent: imageContentCheck(),
    optionChecks: IMAGE_OPTION_CHECKS,
    narrowed: Object.entries(IMAGE_OPTION_HAS_NO_EFFECT).flatMap(([option, outputs]) =>
      Object.entries(outputs).map(([output, reason]) => ({ option, where: `${output} outputs`, reason })),
    ),

    async generateSample(format: string, dir: string, signal: AbortSignal): Promise<string> {
      const decoder = IMAGE_DECODERS[format];
      if (!decoder) throw new Error(`no image decoder declared for ${format}`);
      const base = join(dir, 'base.png');
      await sharp(Buffer.from(PICTURE_SVG)).png().toFile(base);
      const sample = join(dir, `sample.${format}`);
      const { convert } = await tools;
      if (ANIMATED_SAMPLES.has(format)) {
        // Three frames, each its own PNG; ImageMagick writes the animation, libvips turns a GIF into WebP.
        const frames: string[] = [];
        for (let frame = 0; frame < ANIMATION_FRAMES; frame += 1) {
          const path = join(dir, `frame-${frame}.png`);
          await sharp(Buffer.from(pictureSvg(frame)))
            .png()
            .toFile(path);
          frames.push(path);
        }
        if (format === 'webp') {
          const gif = join(dir, 'animation.gif');
          await run(convert, ['-delay', '20', '-loop', '0', '-dispose', 'background', ...frames.map((path) => `png:${path}`), `gif:${gif}`], signal);
          await sharp(gif, { animated: true }).webp({ lossless: true }).toFile(sample);
        } else {
          await run(convert, ['-delay', '20', '-loop', '0', '-dispose', 'background', ...frames.map((path) => `png:${path}`), `${format.toUpperCase()}:${sample}`], signal);
        }
        return sample;
      }
      switch (decoder.engine) {
        case 'sharp':
          if (format === 'svg') await writeFile(sample, PICTURE_SVG);
          else if (format === 'btf' || format === 'tf8') await run(convert, [`png:${base}`, `TIFF64:${sample}`], signal);
          else if (format === 'v' || format === 'vips') await run('vips', ['copy', base, sample], signal);
          else
            await sharp(base)
              .toFormat(SHARP_FORMAT[format] === 'heif' ? 'avif' : (SHARP_FORMAT[format] as keyof sharp.FormatEnum))
              .toFile(sample);
          break;
        case 'magick':
          if (['ICB', 'VDA', 'VST'].includes(decoder.coder)) {
            // ImageMagick 6 writes Targa rows top-down under a bottom-left origin; ffmpeg writes a valid one.
            await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', `file:${base}`, '-f', 'image2', '-c:v', 'targa', `file:${sample}`], signal);
          } else if (decoder.coder === 'DCM') {
            // ImageMagick reads DICOM but cannot write it; dcmtk wraps a JPEG.
            const jpeg = join(dir, 'base.jpg');
            await sharp(base).flatten({ background: '#ffffff' }).jpeg().toFile(jpeg);
            await run('img2dcm', [jpeg, sample], signal);
          } else if (decoder.coder === 'SUN') {
            // Sun raster has no alpha; ImageMagick would write its own 32-bit variant that other readers take as padding.
            await run(convert, [`png:${base}`, '-background', 'white', '-alpha', 'remove', '-alpha', 'off', `SUN:${sample}`], signal);
          } else {
            await run(convert, [`png:${base}`, `${decoder.coder}:${sample}`], signal);
          }
          break;
        case 'jxr': {
          const bmp = join(dir, 'base.bmp');
          await run(convert, [`png:${base}`, '-background', 'white', '-alpha', 'remove', '-alpha', 'off', `bmp3:${bmp}`], signal);
          await run('JxrEncApp', ['-i', bmp, '-o', sample, '-q', '0.8'], signal);
          break;
        }
        case 'netpbm': {
          const writer = NETPBM_WRITERS[format];
          if (!writer) throw new Error(`no Netpbm writer for ${format}`);
          // Fixed-size formats get their size (Atari screens in at most 16 colours); bitmaps and greymaps their depth.
          const pnm = join(dir, `base.${writer.input}`);
          const shape = writer.size ? ['-resize', `${writer.size}!`, '-colors', '8'] : [];
          const bitmap = writer.input === 'pbm' ? ['-colorspace', 'gray', '-threshold', '50%'] : writer.input === 'pgm' ? ['-colorspace', 'gray'] : [];
          await run(convert, [`png:${base}`, '-background', 'white', '-alpha', 'remove', '-alpha', 'off', ...shape, ...bitmap, '-depth', '8', `${writer.input}:${pnm}`], signal);
          if (writer.seeks) await writeSeekingOutput(writer.command, pnm, sample);
          else await runEngine({ command: writer.command, args: [pnm], stdoutFile: sample, timeoutMs: ENGINE_TIMEOUT_MS, signal });
          break;
        }
        case 'icns': {
          // png2icns takes only the sizes an icon family has.
          const square = join(dir, 'base-128.png');
          await sharp(base).resize(128, 128, { fit: 'fill' }).png().toFile(square);
          await run('png2icns', [sample, square], signal);
          break;
        }
        case 'heif':
          await run('heif-enc', ['--quality', '70', '--output', sample, base], signal);
          break;
        case 'jxl':
          await run('cjxl', [base, sample], signal);
          break;
        case 'rsvg':
          await writeFile(sample, gzipSync(Buffer.from(PICTURE_SVG)));
          break;
        case 'ghostscript': {
          const ps = join(dir, 'picture.eps');
          await writeFile(ps, PICTURE_PS);
          if (format === 'eps' || format === 'epsf' || format === 'epsi') {
            await writeFile(sample, PICTURE_PS);
            return sample;
          }
          // An Illustrator file since CS is a PDF with extra private data.
          const device = format === 'pdf' || format === 'ai' ? 'pdfwrite' : 'ps2write';
          await run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dEPSCrop', `-sDEVICE=${device}`, `-sOutputFile=${sample}`, ps], signal);
          break;
        }
        case 'ffmpeg': {
          // VBN's default texture is DXT5; the raw one keeps every pixel.
          const vbn = format === 'vbn' ? ['-format', 'raw', '-pix_fmt', 'rgba'] : [];
          await run('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', `file:${base}`, '-frames:v', '1', '-update', '1', ...vbn, `file:${sample}`], signal);
          break;
        }
      }
      return sample;
    },

    async verifyOutput(format: string, path: string): Promise<void> {
      const encoder = IMAGE_ENCODERS[format];
      if (!encoder) throw new Error(`no image encoder declared for ${format}`);
      const head = await readHead(path, 64);
      const magic = MAGIC[format];
      if (magic && !magic(head)) throw new Error(`${format} output does not start with a ${format} signature (${head.subarray(0, 12).toString('hex')})`);
      const signal = AbortSignal.timeout(ENGINE_TIMEOUT_MS);
      if (SHARP_FORMAT[format]) {
        const meta = await sharp(path).metadata();
        if (meta.format !== SHARP_FORMAT[format]) throw new Error(`libvips reads the ${format} output as ${meta.format}`);
        if (!meta.width || !meta.height) throw new Error(`the ${format} output has no pixels`);
        return;
      }
      switch (format) {
        case 'svg': {
          const svg = await readFile(path, 'utf8');
          if (!svg.includes('<svg') || !svg.includes('<path')) throw new Error('the svg output has no traced path');
          const meta = await sharp(Buffer.from(svg)).metadata();
          if (!meta.width) throw new Error('librsvg cannot render the svg output');
          return;
        }
        case 'pdf': {
          const { stdout } = await run('pdfinfo', [path], signal);
          if (!/Pages:\s+1/.test(stdout)) throw new Error(`pdfinfo: ${stdout.slice(0, 200)}`);
          return;
        }
        case 'eps':
        case 'ps':
          await run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=nullpage', path], signal);
          return;
        case 'heic': {
          const { stdout } = await run('heif-info', [path], signal);
          if (!/\d+x\d+/.test(stdout)) throw new Error(`heif-info: ${stdout.slice(0, 200)}`);
          return;
        }
        case 'jxl':
          await run('djxl', [path, `${path}.check.png`], signal);
          return;
        case 'jxr': {
          const tiff = `${path}.check.tif`;
          await run('JxrDecApp', ['-i', path, '-o', tiff], signal);
          const meta = await sharp(tiff).metadata();
          if (!meta.width || !meta.height) throw new Error('jxrlib decodes no pixels from the jxr output');
          return;
        }
        case 'qoi':
        case 'exr': {
          const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', path], signal);
          if (!stdout.startsWith(format === 'qoi' ? 'qoi,' : 'exr,')) throw new Error(`ffprobe reads the ${format} output as: ${stdout.trim()}`);
          return;
        }
      }
      // TGA is written by ffmpeg (ImageMagick 6 writes it upside down) and identified by ImageMagick.
      const coder = encoder.engine === 'magick' ? encoder.coder : format === 'tga' ? 'TGA' : undefined;
      if (!coder) throw new Error(`no check for ${format}`);
      const { identify } = await tools;
      const { stdout } = await run(identify, ['-format', '%m %w %h\\n', `${coder}:${path}[0]`], signal);
      const [, width, height] = stdout.trim().split(/\s+/);
      if (!Number(width) || !Number(height)) throw new Error(`identify reads no image in the ${format} output: ${stdout.trim()}`);
    },
  };
}

async function resolveMagick(): Promise<{ convert: string; identify: string }> {
  const first = async (candidates: readonly string[]) => {
    for (const candidate of candidates) if (await resolveCommand(candidate)) return candidate;
    return candidates[0]!;
  };
  return { convert: await first(MAGICK_CANDIDATES), identify: await first(IDENTIFY_CANDIDATES) };
}

/** Runs a Netpbm writer with its stdout opened on the sample file itself (ppmtoneo writes a short, wrong file into a pipe). */
async function writeSeekingOutput(command: string, input: string, output: string): Promise<void> {
  const file = await open(output, 'w');
  try {
    const result = spawnSync(command, [input], { stdio: ['ignore', file.fd, 'pipe'], timeout: ENGINE_TIMEOUT_MS });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr?.toString() ?? result.error?.message}`);
  } finally {
    await file.close();
  }
}
