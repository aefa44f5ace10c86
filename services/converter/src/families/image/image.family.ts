import sharp from 'sharp';
import { ServiceFailure } from '@transmute/contracts';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { IMAGE_INPUTS, IMAGE_OUTPUTS, imageOptions, imageSettings } from './image-options';

const canonical = (format: string) => (format === 'jpeg' ? 'jpg' : format === 'tif' ? 'tiff' : format);

/** Raster images through sharp/libvips, file to file, never a whole image held twice. */
export class ImageFamily implements ConverterFamily {
  readonly name = 'image';
  readonly engineVersion = `sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`;

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    for (const inputFormat of IMAGE_INPUTS) {
      for (const outputFormat of IMAGE_OUTPUTS) {
        if (canonical(inputFormat) === canonical(outputFormat)) continue;
        pairs.push({ inputFormat, outputFormat, options: imageOptions(outputFormat) });
      }
    }
    return pairs;
  }

  async convert(request: ConversionRequest): Promise<void> {
    const settings = imageSettings(request.options);
    let pipeline = sharp(request.inputPath, { animated: canonical(request.outputFormat) === 'gif' }).rotate();
    if (settings.width || settings.height) {
      pipeline = pipeline.resize({ width: settings.width, height: settings.height, fit: settings.fit, withoutEnlargement: false });
    }
    if (!settings.strip) pipeline = pipeline.keepMetadata();
    const quality = settings.quality;
    switch (canonical(request.outputFormat)) {
      case 'jpg':
        // JPEG has no alpha: transparent areas become white rather than black.
        pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
        break;
      case 'png':
        pipeline = pipeline.png();
        break;
      case 'webp':
        pipeline = pipeline.webp({ quality });
        break;
      case 'avif':
        pipeline = pipeline.avif({ quality });
        break;
      case 'gif':
        pipeline = pipeline.gif();
        break;
      case 'tiff':
        pipeline = pipeline.tiff();
        break;
      default:
        throw ServiceFailure.validation(`the image family does not write ${request.outputFormat}`);
    }
    try {
      await pipeline.toFile(request.outputPath);
    } catch (error) {
      // libvips refusing the input is the file's fault: retrying cannot help.
      throw ServiceFailure.validation(`could not convert the ${request.inputFormat} file: ${(error as Error).message}`);
    }
  }
}
