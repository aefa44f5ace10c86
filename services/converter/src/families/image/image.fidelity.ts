import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type CheckedPair, type ContentCheck, Findings } from '../../matrix/fidelity/findings';
import {
  type Rgba,
  flattened,
  formatDb,
  greyed,
  hasTransparency,
  inkAgreement,
  isBitonal,
  thresholdAlpha,
  transparentShare,
  maxDifference,
  psnr,
  readRgba,
  resized,
} from '../../matrix/fidelity/pixels';
import { PREFERRED_READERS, type ReaderEngine, decodeImage, familyEngine, readerOrder } from './image-readers';
import { ANIMATED_OUTPUTS, keepsAlpha } from './image-formats';

/**
 * How faithful each output format can be, and the bar it is held to. Lossless
 * targets must give back the source's pixels (a difference of at most 2 of 255
 * per channel, for rounding between readers); lossy ones a PSNR above the bar;
 * targets that by nature keep less are compared on what they keep.
 */
export type ImageFidelity =
  { kind: 'lossless' } | { kind: 'lossy'; minDb: number } | { kind: 'grey'; minDb: number } | { kind: 'bitonal'; minAgreement: number } | { kind: 'traced'; minAgreement: number };

const LOSSLESS = { kind: 'lossless' } as const;
const lossy = (minDb: number) => ({ kind: 'lossy', minDb }) as const;

export const OUTPUT_FIDELITY: Record<string, ImageFidelity> = {
  png: LOSSLESS,
  tif: LOSSLESS,
  tiff: LOSSLESS,
  bmp: LOSSLESS,
  tga: LOSSLESS,
  ppm: LOSSLESS,
  pnm: LOSSLESS,
  pam: LOSSLESS,
  sgi: LOSSLESS,
  ras: LOSSLESS,
  // ImageMagick (the only reader of its PSD here) reads half-transparent colours back darker: 26-30 dB.
  psd: lossy(25),
  miff: LOSSLESS,
  qoi: LOSSLESS,
  exr: LOSSLESS,
  dpx: LOSSLESS,
  pfm: LOSSLESS,
  xwd: LOSSLESS,
  ico: LOSSLESS,
  pcx: LOSSLESS,
  pict: LOSSLESS,
  fits: { kind: 'grey', minDb: 25 },
  jp2: LOSSLESS,
  j2k: LOSSLESS,
  // Lossy by design at the default quality 80: JPEG (also inside PDF/EPS/PS), WebP, AVIF, HEIC, JPEG XL,
  // JPEG XR; DXT; 256-colour palettes. The sample is small and full of hard edges, where these
  // measure 22-35 dB (a dithered Palm bitmap 22); a black, flipped or shifted picture measures under 15.
  jpg: lossy(20),
  jpeg: lossy(20),
  webp: lossy(20),
  avif: lossy(20),
  heic: lossy(20),
  jxl: lossy(20),
  jxr: lossy(20),
  pdf: lossy(20),
  eps: lossy(20),
  ps: lossy(20),
  // Radiance RGBE keeps about 1% precision.
  hdr: lossy(35),
  dds: lossy(20),
  gif: lossy(20),
  xpm: lossy(20),
  pgm: { kind: 'grey', minDb: 25 },
  // A black or a white picture agrees with the sample on about half its pixels; engines threshold
  // colours near mid-grey differently (ImageMagick's intensity, a 50% trace), so 70% is the bar.
  pbm: { kind: 'bitonal', minAgreement: 0.7 },
  xbm: { kind: 'bitonal', minAgreement: 0.7 },
  wbmp: { kind: 'bitonal', minAgreement: 0.7 },
  svg: { kind: 'traced', minAgreement: 0.7 },
};

const ICON_MAX = 256;
/** Targets whose transparency is all or nothing. */
const ONE_BIT_ALPHA = new Set(['gif', 'xpm']);
/** Alpha must come back within this many levels (of 255) where the target keeps it. */
const ALPHA_TOLERANCE = { lossless: 2, lossy: 24 };
/** The lossy bar for black-and-white sources, whose hard edges ring under JPEG-like codecs. */
const BITONAL_SOURCE_DB = 18;
/**
 * Page and vector inputs, rendered to pixels by the family and by the reader
 * alike: two rasterisers shade edges differently (Ghostscript without
 * anti-aliasing, poppler with it), so these are held to a PSNR of
 * VECTOR_SOURCE_DB whatever the target, and their alpha is compared loosely.
 */
const VECTOR_SOURCES = new Set(['pdf', 'eps', 'epsf', 'epsi', 'ps', 'ai', 'svg', 'svgz']);
const VECTOR_SOURCE_DB = 20;
/**
 * Inputs coded with loss (YCbCr and transforms): two decoders of the same
 * file round its colour conversion differently, so a lossless target is held
 * to LOSSY_SOURCE_DB against the reader's decoding rather than to identity.
 */
const LOSSY_SOURCES = new Set(['jpg', 'jpeg', 'jpe', 'jfif', 'jfi', 'jif', 'jps', 'jng', 'heic', 'heif', 'hif', 'avif', 'jxl', 'jxr', 'wdp', 'hdp', 'dds', 'pcd', 'jpm']);
const LOSSY_SOURCE_DB = 40;
/** Vector and page formats are compared at the resolution the family renders them at. */
const RENDER_DPI = 150;

export interface Reading {
  image: Rgba;
  frames: number;
  reader: ReaderEngine;
  independent: boolean;
  /** Readers that tried before and could not decode the file. */
  refused: string[];
}

/**
 * The image family's content check: source and output are each decoded by a
 * reader other than the engine that decoded or wrote them (where one exists),
 * then compared: size, pixels (exact or PSNR by target), alpha and frames.
 */
export function imageContentCheck(): ContentCheck {
  const sources = new Map<string, Promise<Reading>>();
  const readSource = (path: string, format: string, signal: AbortSignal) => {
    let reading = sources.get(path);
    if (!reading) {
      reading = read(path, format, 'input', dirname(path), signal);
      sources.set(path, reading);
      reading.catch(() => sources.delete(path));
    }
    return reading;
  };

  return async (pair, sourcePath, outputPath, signal) => {
    const findings = new Findings();
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      const fidelity = OUTPUT_FIDELITY[pair.outputFormat];
      if (!fidelity) {
        findings.fail('pixels', `no fidelity bar is declared for ${pair.outputFormat} outputs`);
        return findings.list;
      }
      let source: Reading | undefined;
      let output: Reading | undefined;
      await findings.attempt('read source', async () => {
        source = await readSource(sourcePath, pair.inputFormat, signal);
      });
      await findings.attempt('read output', async () => {
        output = await read(outputPath, pair.outputFormat, 'output', scratch, signal);
        findings.expect(
          'reader',
          true,
          `${output.reader}${output.independent ? '' : ` (${PREFERRED_READERS[pair.outputFormat]?.why ?? `no reader here other than ${familyEngine(pair.outputFormat, 'output')}, which wrote it`})`}${output.refused.length > 0 ? `; could not read it: ${output.refused.join('; ')}` : ''}`,
        );
      });
      if (!source || !output) return findings.list;
      await compare(findings, pair, fidelity, source, output);
      return findings.list;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

/**
 * Decodes with the first reader that succeeds, independent ones first. A
 * reader that fails is named in the result, so a file only its own writer can
 * read is visible in the report.
 */
export async function read(path: string, format: string, side: 'input' | 'output', dir: string, signal: AbortSignal): Promise<Reading> {
  const own = familyEngine(format, side);
  const refused: string[] = [];
  for (const reader of readerOrder(format, own)) {
    try {
      const decoded = await decodeImage(path, format, reader, dir, signal, { dpi: side === 'output' && ['pdf', 'eps', 'ps'].includes(format) ? 72 : RENDER_DPI });
      return { image: await readRgba(decoded.frames[0]!), frames: decoded.frameCount, reader, independent: reader !== own, refused };
    } catch (error) {
      refused.push(`${reader}: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
  }
  throw new Error(`no reader could decode it (${refused.join('; ')})`);
}

export async function compare(findings: Findings, pair: CheckedPair, declared: ImageFidelity, source: Reading, output: Reading): Promise<void> {
  let fidelity = declared;
  let src = source.image;
  let out = output.image;
  const size = `source ${src.width}x${src.height}, output ${out.width}x${out.height}`;
  if (fidelity.kind === 'traced') {
    // A traced vector has no pixel size of its own: it must keep the proportions.
    const ratio = out.width / out.height / (src.width / src.height);
    findings.expect('proportions', Math.abs(ratio - 1) < 0.03, size);
    out = await resized(out, src.width, src.height);
  } else if (VECTOR_SOURCES.has(pair.inputFormat) && Math.abs(src.width - out.width) <= 1 && Math.abs(src.height - out.height) <= 1) {
    // Two renderers may round a page's size in points to pixels differently.
    findings.expect('dimensions', true, `${size} (a rendered page: one pixel of rounding allowed)`);
    out = await resized(out, src.width, src.height);
  } else if (pair.outputFormat === 'ico' && Math.max(src.width, src.height) > ICON_MAX) {
    // An icon holds at most 256 pixels a side: the picture is scaled to fit.
    const scale = ICON_MAX / Math.max(src.width, src.height);
    const fits = Math.abs(out.width - Math.round(src.width * scale)) <= 1 && Math.abs(out.height - Math.round(src.height * scale)) <= 1;
    if (!findings.expect('dimensions', fits, `${size} (an icon holds at most ${ICON_MAX} a side)`)) return;
    // Two scalers never agree to the pixel: the scaled picture is held to a PSNR.
    src = await resized(src, out.width, out.height);
    fidelity = lossy(25);
  } else if (!findings.expect('dimensions', src.width === out.width && src.height === out.height, size)) {
    return;
  }
  const alphaKept = keepsAlpha(pair.outputFormat);
  // GIF and XPM keep a pixel or drop it: the source's alpha is cut at half before comparing.
  if (alphaKept && ONE_BIT_ALPHA.has(pair.outputFormat)) src = thresholdAlpha(src);
  const reference = alphaKept ? src : flattened(src);
  const shown = alphaKept ? out : flattened(out);
  const vector = VECTOR_SOURCES.has(pair.inputFormat);
  if (vector && fidelity.kind !== 'bitonal' && fidelity.kind !== 'traced') {
    const grey = fidelity.kind === 'grey';
    const db = grey ? psnr(greyed(flattened(reference)), greyed(flattened(shown))) : psnr(flattened(reference), flattened(shown));
    findings.expect(grey ? 'grey levels' : 'PSNR', db >= VECTOR_SOURCE_DB, `${formatDb(db)}, at least ${VECTOR_SOURCE_DB} dB required (a page rendered by two rasterisers)`);
    // A rendered page's last column is partly covered by one rasteriser and not the other: only real transparent areas count.
    if (alphaKept && transparentShare(src) > 0.05) findings.expect('alpha kept', transparentShare(out) > 0.05, 'the rendered page keeps its transparent areas');
    return;
  }
  switch (fidelity.kind) {
    case 'lossless': {
      const diff = maxDifference(flattened(reference), flattened(shown));
      const db = psnr(flattened(reference), flattened(shown));
      if (LOSSY_SOURCES.has(pair.inputFormat)) {
        findings.expect('pixels', db >= LOSSY_SOURCE_DB, `PSNR ${formatDb(db)} against a second decoder of the lossy source, at least ${LOSSY_SOURCE_DB} dB required`);
      } else {
        findings.expect('pixels identical', diff <= ALPHA_TOLERANCE.lossless, `largest channel difference ${diff} of 255 (PSNR ${formatDb(db)})`);
      }
      break;
    }
    case 'lossy': {
      const db = psnr(flattened(reference), flattened(shown));
      // Hard black-and-white edges ring under lossy codecs far more than a photograph does.
      const bar = isBitonal(flattened(reference)) ? Math.min(fidelity.minDb, BITONAL_SOURCE_DB) : fidelity.minDb;
      findings.expect('PSNR', db >= bar, `${formatDb(db)}, at least ${bar} dB required${bar < fidelity.minDb ? ' (a black-and-white source)' : ''}`);
      break;
    }
    case 'grey': {
      const db = psnr(greyed(flattened(reference)), greyed(flattened(shown)));
      findings.expect('grey levels', db >= fidelity.minDb, `PSNR of the grey picture ${formatDb(db)}, at least ${fidelity.minDb} dB required`);
      break;
    }
    case 'bitonal':
    case 'traced': {
      const agreement = inkAgreement(flattened(reference), flattened(shown));
      findings.expect('black and white', agreement >= fidelity.minAgreement, `${(agreement * 100).toFixed(1)}% of pixels agree, at least ${fidelity.minAgreement * 100}% required`);
      break;
    }
  }
  if (alphaKept && fidelity.kind !== 'bitonal' && fidelity.kind !== 'traced') {
    if (hasTransparency(src)) {
      const diff = maxDifference(src, out, [3]);
      const tolerance = fidelity.kind === 'lossless' ? ALPHA_TOLERANCE.lossless : ALPHA_TOLERANCE.lossy;
      findings.expect('alpha kept', hasTransparency(out) && diff <= tolerance, `largest alpha difference ${diff} of 255 (at most ${tolerance})`);
    }
  }
  const animated = ANIMATED_OUTPUTS.has(pair.outputFormat);
  if (source.frames > 1) {
    const kept = animated ? output.frames === source.frames : output.frames >= 1;
    // A layered file's layers and an icon family's sizes read as frames too; the declared note covers them.
    const declared = pair.note !== undefined && /first (frame|page)|layers are flattened|largest icon/.test(pair.note);
    const detail = `source ${source.frames} frames, output ${output.frames}`;
    if (animated && !declared) findings.expect('frames', kept, detail);
    else findings.expect('frames', declared || output.frames === source.frames, declared ? `${detail}; declared: ${pair.note}` : `${detail}, and the pair declares no loss`);
  }
}
