import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { ServiceFailure } from '@transmute/contracts';
import { engineLimits } from '../../engine/engine-limits';
import { pixelLimit } from '../../engine/pixel-limit';
import { resolveCommand } from '../../engine/resolve-command';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import * as commands from './image-commands';
import { IMAGE_DECODERS, IMAGE_ENCODERS, type ImageDecoder, type ImageEncoder, LOSSY_OUTPUTS, canonicalImageFormat, imagePairNote, keepsAlpha } from './image-formats';
import { type ImageSettings, imageOptions, imageSettings, keepsMetadata } from './image-options';

interface Job {
  request: ConversionRequest;
  settings: ImageSettings;
  /** Scratch directory for intermediate files, inside the task's own. */
  stage: string;
}

/**
 * Raster images: libvips (sharp) does the pixel work (orientation, resizing,
 * background, colour space) and writes the common formats; ImageMagick,
 * libheif, libjxl, librsvg, Ghostscript, ffmpeg and potrace read or write the
 * rest, through a lossless PNG stage.
 */
export class ImageFamily implements ConverterFamily {
  readonly name = 'image';
  engineVersion = `sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`;
  private magick?: Promise<{ convert: string; identify: string }>;

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    for (const inputFormat of Object.keys(IMAGE_DECODERS)) {
      for (const outputFormat of Object.keys(IMAGE_ENCODERS)) {
        if (canonicalImageFormat(inputFormat) === canonicalImageFormat(outputFormat)) continue;
        pairs.push({ inputFormat, outputFormat, options: imageOptions(inputFormat, outputFormat), note: imagePairNote(inputFormat, outputFormat) });
      }
    }
    return pairs;
  }

  async start(): Promise<void> {
    const { convert } = await this.magickCommands();
    const { stdout } = await runEngine({ command: convert, args: ['-version'], timeoutMs: 10_000, signal: AbortSignal.timeout(10_000) });
    const version = /ImageMagick (\S+)/.exec(stdout)?.[1];
    if (version) this.engineVersion = `${this.engineVersion} / ImageMagick ${version}`;
  }

  async convert(request: ConversionRequest): Promise<void> {
    const decoder = IMAGE_DECODERS[request.inputFormat];
    const encoder = IMAGE_ENCODERS[request.outputFormat];
    if (!decoder) throw ServiceFailure.validation(`the image family does not read ${request.inputFormat}`);
    if (!encoder) throw ServiceFailure.validation(`the image family does not write ${request.outputFormat}`);
    const settings = imageSettings(request.options, request.outputFormat);
    if (decoder.engine === 'sharp' && encoder.engine === 'sharp') {
      // libvips reads and writes both ends, with no file between: a profile put mkdtemp at 4.7 % of the converter's CPU for two directories per task, and this was one of them.
      await this.encode({ request, settings, stage: dirname(request.outputPath) }, request.inputPath, true, encoder);
      return;
    }
    const stage = await mkdtemp(join(dirname(request.outputPath), 'image-'));
    const job: Job = { request, settings, stage };
    try {
      const pixels = decoder.engine === 'sharp' ? request.inputPath : await this.decode(job, decoder);
      await this.encode(job, pixels, decoder.engine === 'sharp', encoder);
    } finally {
      await rm(stage, { recursive: true, force: true });
    }
  }

  /** Any non-libvips input to a PNG libvips reads. */
  private async decode(job: Job, decoder: Exclude<ImageDecoder, { engine: 'sharp' }>): Promise<string> {
    const { inputPath, inputFormat } = job.request;
    const png = join(job.stage, 'decoded.png');
    switch (decoder.engine) {
      case 'magick': {
        const { convert, identify } = await this.magickCommands();
        await this.refuseOversized(job, commands.magickPing(identify, decoder.coder, inputPath));
        await this.run(job, commands.magickDecode(convert, decoder.coder, inputPath, png));
        break;
      }
      case 'heif':
        await this.run(job, commands.heifDecode(inputPath, png));
        break;
      case 'jxl':
        await this.run(job, commands.jxlDecode(inputPath, png));
        break;
      case 'rsvg':
        await this.run(job, commands.rsvgDecode(inputPath, png));
        break;
      case 'ghostscript':
        await this.run(job, commands.ghostscriptDecode(inputPath, png, canonicalImageFormat(inputFormat) === 'eps'));
        break;
      case 'ffmpeg':
        await this.run(job, commands.ffmpegDecode(inputPath, png));
        break;
      case 'jxr': {
        // jxrlib names its output format by the file extension.
        const tiff = join(job.stage, 'decoded.tif');
        await this.run(job, commands.jxrDecode(inputPath, tiff));
        return tiff;
      }
      case 'icns':
        return this.largestIcon(job);
      case 'netpbm': {
        const pnm = join(job.stage, 'decoded.pnm');
        const { command, args } = commands.netpbmDecode(decoder.reader, inputPath);
        await runEngine({ command, args, cwd: job.stage, stdoutFile: pnm, timeoutMs: engineLimits().timeoutMs, signal: job.request.signal });
        return this.pnmToPng(job, pnm, png);
      }
    }
    return png;
  }

  private async encode(job: Job, pixels: string, fromLibvips: boolean, encoder: ImageEncoder): Promise<void> {
    const { request, settings } = job;
    const { outputPath, outputFormat } = request;
    const animated = fromLibvips && encoder.engine === 'sharp' && (encoder.format === 'gif' || encoder.format === 'webp');
    const pipeline = this.pixelWork(job, sharp(pixels, { limitInputPixels: pixelLimit(), animated }), keepsMetadata(request.inputFormat, outputFormat));
    const quality = settings.quality;
    switch (encoder.engine) {
      case 'sharp':
        await this.writeSharp(job, sharpOutput(pipeline, encoder.format, settings), outputPath);
        return;
      case 'magick': {
        const png = await this.writeSharp(job, pipeline.png(), join(job.stage, 'pixels.png'));
        const { convert } = await this.magickCommands();
        await this.run(job, commands.magickEncode(convert, encoder.coder, png, outputPath, LOSSY_OUTPUTS.has(outputFormat) ? quality : undefined));
        return;
      }
      case 'heif': {
        const png = await this.writeSharp(job, pipeline.png(), join(job.stage, 'pixels.png'));
        await this.run(job, commands.heifEncode(png, outputPath, quality));
        return;
      }
      case 'jxl': {
        const png = await this.writeSharp(job, pipeline.png(), join(job.stage, 'pixels.png'));
        await this.run(job, commands.jxlEncode(png, outputPath, quality, settings.lossless));
        return;
      }
      case 'ffmpeg': {
        const png = await this.writeSharp(job, pipeline.png(), join(job.stage, 'pixels.png'));
        await this.run(job, commands.ffmpegEncode(png, outputPath));
        return;
      }
      case 'jxr': {
        const tiff = await this.writeSharp(job, pipeline.tiff({ compression: 'none' }), join(job.stage, 'pixels.tif'));
        await this.run(job, commands.jxrEncode(tiff, outputPath, quality, settings.lossless));
        return;
      }
      case 'potrace': {
        const png = await this.writeSharp(job, pipeline.png(), join(job.stage, 'pixels.png'));
        const bitmap = join(job.stage, 'bitmap.pbm');
        const { convert } = await this.magickCommands();
        await this.run(job, commands.magickBitmap(convert, png, bitmap, settings.threshold));
        await this.run(job, commands.potraceSvg(bitmap, outputPath));
        return;
      }
      case 'ghostscript': {
        const jpeg = await this.writeSharp(job, pipeline.jpeg({ quality, mozjpeg: true }), join(job.stage, 'page.jpg'));
        await this.run(job, commands.ghostscriptFromJpeg(encoder.device, jpeg, job.stage, outputPath));
        return;
      }
    }
  }

  /** What every output shares: orientation, size, background, colour space, metadata. */
  private pixelWork(job: Job, image: Sharp, metadataCarries: boolean): Sharp {
    const { settings, request } = job;
    let pipeline = image.rotate();
    if (settings.width || settings.height) {
      pipeline = pipeline.resize({ width: settings.width, height: settings.height, fit: settings.fit, withoutEnlargement: false });
    }
    // Formats without transparency get white, not the black libvips would leave.
    const background = settings.background ?? (keepsAlpha(request.outputFormat) ? null : '#ffffff');
    if (background) pipeline = pipeline.flatten({ background });
    if (settings.colorspace === 'grayscale') pipeline = pipeline.toColourspace('b-w');
    if (settings.colorspace === 'cmyk') pipeline = pipeline.toColourspace('cmyk');
    if (metadataCarries && !settings.strip) pipeline = pipeline.keepMetadata();
    return pipeline;
  }

  private async writeSharp(job: Job, pipeline: Sharp, path: string): Promise<string> {
    if (job.request.signal.aborted) throw ServiceFailure.unavailable('the conversion was cancelled');
    try {
      await pipeline.toFile(path);
      return path;
    } catch (error) {
      // libvips refusing the pixels is the file's fault: retrying cannot help.
      throw ServiceFailure.validation(`could not convert the ${job.request.inputFormat} file: ${(error as Error).message}`);
    }
  }

  /** sharp's libvips does not read PNM: ImageMagick turns it into PNG, after the same size check as its own inputs. */
  private async pnmToPng(job: Job, pnm: string, png: string): Promise<string> {
    const { convert, identify } = await this.magickCommands();
    await this.refuseOversized(job, commands.magickPing(identify, 'PNM', pnm));
    await this.run(job, commands.magickDecode(convert, 'PNM', pnm, png));
    return png;
  }

  /** An .icns holds one picture at several sizes: the largest one stands for the file. */
  private async largestIcon(job: Job): Promise<string> {
    const dir = join(job.stage, 'icons');
    await mkdir(dir);
    await this.run(job, commands.icnsExtract(job.request.inputPath, dir));
    const icons = (await readdir(dir)).filter((name) => name.endsWith('.png'));
    const sizes = await Promise.all(icons.map(async (name) => ({ name, pixels: await pngPixels(join(dir, name)) })));
    const largest = sizes.sort((a, b) => b.pixels - a.pixels)[0];
    if (!largest) throw ServiceFailure.validation('the icns file holds no icon');
    return join(dir, largest.name);
  }

  private async refuseOversized(job: Job, ping: commands.Command): Promise<void> {
    const { stdout } = await this.run(job, ping);
    const [width, height] = stdout.trim().split(/\s+/).map(Number);
    if (width && height && width * height > pixelLimit()) {
      throw ServiceFailure.validation(`the image is ${width} x ${height} pixels, over the limit of ${pixelLimit()} pixels`);
    }
  }

  private run(job: Job, { command, args }: commands.Command) {
    return runEngine({ command, args, cwd: job.stage, timeoutMs: engineLimits().timeoutMs, signal: job.request.signal });
  }

  private magickCommands(): Promise<{ convert: string; identify: string }> {
    this.magick ??= (async () => ({
      convert: (await firstInstalled(commands.MAGICK_CANDIDATES)) ?? commands.MAGICK_CANDIDATES[0],
      identify: (await firstInstalled(commands.IDENTIFY_CANDIDATES)) ?? commands.IDENTIFY_CANDIDATES[0],
    }))();
    return this.magick;
  }
}

async function firstInstalled(candidates: readonly string[]): Promise<string | undefined> {
  for (const candidate of candidates) if (await resolveCommand(candidate)) return candidate;
  return undefined;
}

function sharpOutput(pipeline: Sharp, format: Extract<ImageEncoder, { engine: 'sharp' }>['format'], settings: ImageSettings): Sharp {
  const quality = settings.quality;
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality, mozjpeg: true });
    case 'png':
      return pipeline.png();
    case 'webp':
      return pipeline.webp(settings.lossless ? { lossless: true } : { quality });
    case 'avif':
      return pipeline.avif({ quality });
    case 'gif':
      return pipeline.gif();
    case 'tiff':
      // sharp's default TIFF compression is JPEG (lossy, and unreadable with alpha by ffmpeg); LZW keeps every pixel.
      return pipeline.tiff({ compression: 'lzw' });
  }
}

async function pngPixels(path: string): Promise<number> {
  const { width = 0, height = 0 } = await sharp(path)
    .metadata()
    .catch(() => ({ width: 0, height: 0 }));
  return width * height;
}
