/**
 * The image family's manifest data: which engine reads each input format and
 * which writes each output format, by lowercase file extension. Every entry
 * here is proven by the matrix (`pnpm matrix --family image`); a format that
 * fails there is fixed or removed, never listed on faith.
 */

/** How an input becomes pixels. */
export type ImageDecoder =
  | { engine: 'sharp' }
  | { engine: 'magick'; coder: string }
  | { engine: 'heif' }
  | { engine: 'jxl' }
  | { engine: 'rsvg' }
  | { engine: 'ghostscript' }
  | { engine: 'ffmpeg' }
  | { engine: 'jxr' }
  | { engine: 'icns' }
  | { engine: 'netpbm'; reader: string };

/** How pixels become an output. */
export type ImageEncoder =
  | { engine: 'sharp'; format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff' | 'avif' }
  | { engine: 'magick'; coder: string; alpha: boolean }
  | { engine: 'heif' }
  | { engine: 'jxl' }
  | { engine: 'potrace' }
  | { engine: 'ghostscript'; device: 'pdfwrite' | 'eps2write' | 'ps2write' }
  | { engine: 'ffmpeg'; alpha: boolean }
  | { engine: 'jxr' };

const sharp = { engine: 'sharp' } as const;
const magick = (coder: string) => ({ engine: 'magick', coder }) as const;

/** ImageMagick coders that read a file by its own header (raw pixel dumps that need a size are left out). */
const MAGICK_INPUTS: Record<string, string> = {
  aai: 'AAI',
  apng: 'APNG',
  art: 'ART',
  avs: 'AVS',
  bmp: 'BMP',
  cal: 'CALS',
  cals: 'CALS',
  cin: 'CIN',
  cur: 'CUR',
  dcx: 'DCX',
  dds: 'DDS',
  dib: 'BMP',
  dpx: 'DPX',
  fax: 'FAX',
  fits: 'FITS',
  fts: 'FTS',
  g3: 'G3',
  hdr: 'HDR',
  hrz: 'HRZ',
  icb: 'ICB',
  ico: 'ICO',
  ipl: 'IPL',
  j2c: 'J2C',
  j2k: 'J2K',
  jbg: 'JBG',
  jbig: 'JBIG',
  jng: 'JNG',
  jp2: 'JP2',
  jpc: 'JPC',
  jpf: 'JP2',
  jpm: 'JPM',
  jps: 'JPS',
  jpx: 'JP2',
  miff: 'MIFF',
  mng: 'MNG',
  mtv: 'MTV',
  otb: 'OTB',
  palm: 'PALM',
  pam: 'PAM',
  pbm: 'PBM',
  pcd: 'PCD',
  dcm: 'DCM',
  dicom: 'DCM',
  pct: 'PICT',
  pcx: 'PCX',
  pfm: 'PFM',
  pgm: 'PGM',
  pgx: 'PGX',
  pict: 'PICT',
  pnm: 'PNM',
  ppm: 'PPM',
  psb: 'PSB',
  psd: 'PSD',
  ptif: 'PTIF',
  ras: 'SUN',
  rgf: 'RGF',
  sgi: 'SGI',
  bw: 'SGI',
  rgb: 'SGI',
  rgba: 'SGI',
  int: 'SGI',
  inta: 'SGI',
  im32: 'SUN',
  fit: 'FITS',
  rgbe: 'HDR',
  pdd: 'PSD',
  six: 'SIXEL',
  sixel: 'SIXEL',
  sun: 'SUN',
  tga: 'TGA',
  vda: 'VDA',
  vicar: 'VICAR',
  viff: 'VIFF',
  vst: 'VST',
  wbmp: 'WBMP',
  xbm: 'XBM',
  xpm: 'XPM',
  xv: 'VIFF',
  xwd: 'XWD',
  jfif: 'JPEG',
  jfi: 'JPEG',
  jif: 'JPEG',
  bie: 'BIE',
  jpe: 'JPEG',
};

/** Netpbm's readers of old and niche formats (Amiga, Atari, Macintosh, Unix workstations), each writing PNM to stdout. */
const NETPBM_READERS: Record<string, string> = {
  ilbm: 'ilbmtoppm',
  iff: 'ilbmtoppm',
  lbm: 'ilbmtoppm',
  pi1: 'pi1toppm',
  pi3: 'pi3topbm',
  mac: 'macptopbm',
  macp: 'macptopbm',
  pntg: 'macptopbm',
  mgr: 'mgrtopbm',
  mda: 'mdatopbm',
  atk: 'atktopbm',
  cmuwm: 'cmuwmtopbm',
  ybm: 'ybmtopbm',
  mrf: 'mrftopbm',
  pj: 'pjtoppm',
  sir: 'sirtopnm',
  rle: 'rletopnm',
  lispm: 'lispmtopgm',
  fs: 'fstopgm',
  spu: 'sputoppm',
  st4: 'st4topgm',
  // Atari NEOchrome screens, Interleaf documents' images, GEM (Digital Research) bitmaps.
  neo: 'neotoppm',
  leaf: 'leaftoppm',
  img: 'gemtopnm',
};

export const IMAGE_DECODERS: Record<string, ImageDecoder> = {
  png: sharp,
  jpg: sharp,
  jpeg: sharp,
  webp: sharp,
  gif: sharp,
  tif: sharp,
  tiff: sharp,
  avif: sharp,
  // BigTIFF (64-bit offsets), which libvips reads through libtiff.
  btf: sharp,
  tf8: sharp,
  svg: sharp,
  v: sharp,
  vips: sharp,
  heic: { engine: 'heif' },
  heif: { engine: 'heif' },
  hif: { engine: 'heif' },
  jxl: { engine: 'jxl' },
  svgz: { engine: 'rsvg' },
  pdf: { engine: 'ghostscript' },
  eps: { engine: 'ghostscript' },
  ps: { engine: 'ghostscript' },
  epsf: { engine: 'ghostscript' },
  epsi: { engine: 'ghostscript' },
  ai: { engine: 'ghostscript' },
  qoi: { engine: 'ffmpeg' },
  jls: { engine: 'ffmpeg' },
  exr: { engine: 'ffmpeg' },
  pix: { engine: 'ffmpeg' },
  phm: { engine: 'ffmpeg' },
  im1: { engine: 'ffmpeg' },
  im8: { engine: 'ffmpeg' },
  im24: { engine: 'ffmpeg' },
  rs: { engine: 'ffmpeg' },
  pgmyuv: { engine: 'ffmpeg' },
  // Vizrt's broadcast graphics bitmap.
  vbn: { engine: 'ffmpeg' },
  jxr: { engine: 'jxr' },
  wdp: { engine: 'jxr' },
  hdp: { engine: 'jxr' },
  icns: { engine: 'icns' },
  ...Object.fromEntries(Object.entries(MAGICK_INPUTS).map(([extension, coder]) => [extension, magick(coder)])),
  ...Object.fromEntries(Object.entries(NETPBM_READERS).map(([extension, reader]) => [extension, { engine: 'netpbm', reader } as const])),
};

const magickOut = (coder: string, alpha: boolean) => ({ engine: 'magick', coder, alpha }) as const;

export const IMAGE_ENCODERS: Record<string, ImageEncoder> = {
  png: { engine: 'sharp', format: 'png' },
  jpg: { engine: 'sharp', format: 'jpeg' },
  jpeg: { engine: 'sharp', format: 'jpeg' },
  webp: { engine: 'sharp', format: 'webp' },
  gif: { engine: 'sharp', format: 'gif' },
  tif: { engine: 'sharp', format: 'tiff' },
  tiff: { engine: 'sharp', format: 'tiff' },
  avif: { engine: 'sharp', format: 'avif' },
  heic: { engine: 'heif' },
  jxl: { engine: 'jxl' },
  jxr: { engine: 'jxr' },
  svg: { engine: 'potrace' },
  pdf: { engine: 'ghostscript', device: 'pdfwrite' },
  eps: { engine: 'ghostscript', device: 'eps2write' },
  ps: { engine: 'ghostscript', device: 'ps2write' },
  qoi: { engine: 'ffmpeg', alpha: true },
  exr: { engine: 'ffmpeg', alpha: true },
  bmp: magickOut('BMP', true),
  ico: magickOut('ICO', true),
  // ImageMagick 6 writes TGA rows top-down under a bottom-left origin, so every other reader shows it upside down.
  tga: { engine: 'ffmpeg', alpha: true },
  ppm: magickOut('PPM', false),
  pgm: magickOut('PGM', false),
  pbm: magickOut('PBM', false),
  pnm: magickOut('PNM', false),
  pam: magickOut('PAM', true),
  pcx: magickOut('PCX', false),
  psd: magickOut('PSD', true),
  xpm: magickOut('XPM', true),
  xbm: magickOut('XBM', false),
  sgi: magickOut('SGI', true),
  ras: magickOut('SUN', false),
  jp2: magickOut('JP2', true),
  j2k: magickOut('J2K', true),
  dds: magickOut('DDS', true),
  hdr: magickOut('HDR', false),
  miff: magickOut('MIFF', true),
  wbmp: magickOut('WBMP', false),
  fits: magickOut('FITS', false),
  pfm: magickOut('PFM', false),
  dpx: magickOut('DPX', false),
  xwd: magickOut('XWD', false),
  pict: magickOut('PICT', false),
};

/** Spellings of one format; a pair between two of them converts nothing. */
const SAME_FORMAT: Record<string, string> = {
  jpeg: 'jpg',
  jpe: 'jpg',
  jfif: 'jpg',
  jfi: 'jpg',
  jif: 'jpg',
  epsf: 'eps',
  epsi: 'eps',
  bie: 'jbig',
  tif: 'tiff',
  heif: 'heic',
  hif: 'heic',
  cal: 'cals',
  fts: 'fits',
  fit: 'fits',
  rgbe: 'hdr',
  bw: 'sgi',
  rgb: 'sgi',
  rgba: 'sgi',
  int: 'sgi',
  inta: 'sgi',
  pdd: 'psd',
  dicom: 'dcm',
  wdp: 'jxr',
  iff: 'ilbm',
  lbm: 'ilbm',
  macp: 'mac',
  pntg: 'mac',
  hdp: 'jxr',
  jbg: 'jbig',
  pct: 'pict',
  six: 'sixel',
  sun: 'ras',
  xv: 'viff',
  v: 'vips',
};

export const canonicalImageFormat = (format: string): string => SAME_FORMAT[format] ?? format;

/** Outputs that compress with loss, so `quality` means something. */
export const LOSSY_OUTPUTS = new Set(['jpg', 'jpeg', 'webp', 'avif', 'heic', 'jxl', 'jxr', 'jp2', 'j2k', 'pdf', 'eps', 'ps']);
/** Outputs with a lossless mode that overrides `quality`. */
export const LOSSLESS_CAPABLE = new Set(['webp', 'jxl', 'jxr']);
/** Outputs sharp writes in CMYK. */
export const CMYK_OUTPUTS = new Set(['jpg', 'jpeg', 'tif', 'tiff']);
/** Outputs that keep an alpha channel; the rest are flattened onto white unless a background is chosen. */
export function keepsAlpha(output: string): boolean {
  const encoder = IMAGE_ENCODERS[output];
  if (!encoder) return false;
  switch (encoder.engine) {
    case 'sharp':
      return encoder.format !== 'jpeg';
    case 'magick':
    case 'ffmpeg':
      return encoder.alpha;
    case 'heif':
    case 'jxl':
      return true;
    default:
      return false;
  }
}

/** Outputs that keep every frame of an animated input read by libvips (GIF and WebP to each other). */
export const ANIMATED_OUTPUTS = new Set(['gif', 'webp']);
/** Inputs that can hold an animation; only libvips (gif, webp) passes the frames on. */
const ANIMATED_INPUTS = new Set(['gif', 'webp', 'apng', 'mng']);
/** Inputs that can hold several pages or images: the family converts the first (icons: the largest). */
const MULTI_PAGE_INPUTS = new Set(['pdf', 'ps', 'ai', 'tif', 'tiff', 'ptif', 'dcx', 'fax', 'g3', 'jpm', 'miff']);
const LAYERED_INPUTS = new Set(['psd', 'psb', 'pdd']);
const ICON_INPUTS = new Set(['ico', 'cur', 'icns']);

/**
 * What a pair loses by the nature of its formats, in plain words, or nothing:
 * shown with the pair so no loss is silent. The fidelity check holds every
 * output to the rest.
 */
export function imagePairNote(input: string, output: string): string | undefined {
  const notes: string[] = [];
  const keepsFrames = ANIMATED_OUTPUTS.has(output) && IMAGE_DECODERS[input]?.engine === 'sharp';
  if (ANIMATED_INPUTS.has(input) && !keepsFrames) notes.push('only the first frame of an animation');
  if (MULTI_PAGE_INPUTS.has(input)) notes.push('only the first page');
  if (LAYERED_INPUTS.has(input)) notes.push('layers are flattened');
  if (ICON_INPUTS.has(input)) notes.push('only the largest icon');
  if (canonicalImageFormat(input) === 'fits') notes.push('only the first frame (image plane) of a FITS cube');
  const out = canonicalImageFormat(output);
  if (out === 'pbm' || out === 'xbm' || out === 'wbmp') notes.push('black and white only');
  else if (out === 'pgm' || out === 'fits') notes.push('shades of grey only');
  if (out === 'ico') notes.push('at most 256 pixels a side');
  else if (out === 'svg') notes.push('traced as black-and-white shapes');
  else if (out === 'gif' || out === 'xpm') notes.push('at most 256 colours, and transparency is all or nothing');
  if (!keepsAlpha(output)) notes.push('transparency is flattened onto the background (white unless chosen)');
  return notes.length > 0 ? notes.join('; ') : undefined;
}
