/**
 * The archive formats, by catalogue name. The catalogue's format names are
 * single alphanumeric words, so compressed tarballs use their short
 * extensions: tgz = .tar.gz, tbz2 = .tar.bz2, txz = .tar.xz, tzst = .tar.zst,
 * tlz = .tar.lzma, taz = .tar.Z, tzo = .tar.lzo.
 */

/** A container of many entries, written by bsdtar (libarchive) or 7-Zip. */
export interface ContainerFormat {
  kind: 'container';
  /** How it is written; absent for formats only read. */
  writer?: { tool: 'bsdtar'; format: string; filter?: string; levelOption?: string } | { tool: '7zz'; type: 'zip' | '7z' };
}

/** One compressed stream holding a single file (gz, xz...): converted by decompressing and recompressing. */
export interface StreamFormat {
  kind: 'stream';
  tool: 'gzip' | 'bzip2' | 'xz' | 'zstd' | 'lz4' | 'lzip' | 'lzop' | 'brotli';
  /** Arguments that pick the container when the tool writes several (xz also writes .lzma). */
  formatArgs?: readonly string[];
  /** Compression levels the tool accepts. */
  levels: readonly [number, number];
}

export type ArchiveFormat = ContainerFormat | StreamFormat;

const tar = (filter?: string, levelOption?: string): ContainerFormat => ({ kind: 'container', writer: { tool: 'bsdtar', format: 'pax', filter, levelOption } });

export const ARCHIVE_FORMATS: Record<string, ArchiveFormat> = {
  zip: { kind: 'container', writer: { tool: '7zz', type: 'zip' } },
  '7z': { kind: 'container', writer: { tool: '7zz', type: '7z' } },
  tar: tar(),
  tgz: tar('--gzip', 'gzip:compression-level'),
  tbz2: tar('--bzip2', 'bzip2:compression-level'),
  tbz: tar('--bzip2', 'bzip2:compression-level'),
  txz: tar('--xz', 'xz:compression-level'),
  tzst: tar('--zstd', 'zstd:compression-level'),
  tlz: tar('--lzma', 'lzma:compression-level'),
  taz: tar('--compress'),
  tzo: tar('--lzop', 'lzop:compression-level'),
  // A POSIX pax archive, and a comic book as a tarball: both tar files, written as pax like .tar.
  pax: tar(),
  cbt: tar(),
  cpio: { kind: 'container', writer: { tool: 'bsdtar', format: 'newc' } },
  iso: { kind: 'container', writer: { tool: 'bsdtar', format: 'iso9660' } },
  xar: { kind: 'container', writer: { tool: 'bsdtar', format: 'xar' } },
  // Read only: a Debian package and a Unix ar archive are ar files; Java archives are zips; a web
  // archive (WARC) holds no folders and a cabinet has no writer here, so both are only read.
  deb: { kind: 'container' },
  ar: { kind: 'container' },
  jar: { kind: 'container' },
  war: { kind: 'container' },
  ear: { kind: 'container' },
  warc: { kind: 'container' },
  cab: { kind: 'container' },
  // Read only: an RPM package (its cpio payload, which bsdtar reads), and packages that are zips under
  // their own names: Android and iOS apps, Firefox add-ons, Python wheels, NuGet packages.
  rpm: { kind: 'container' },
  apk: { kind: 'container' },
  ipa: { kind: 'container' },
  xpi: { kind: 'container' },
  whl: { kind: 'container' },
  nupkg: { kind: 'container' },
  gz: { kind: 'stream', tool: 'gzip', levels: [1, 9] },
  bz2: { kind: 'stream', tool: 'bzip2', levels: [1, 9] },
  xz: { kind: 'stream', tool: 'xz', levels: [0, 9] },
  lzma: { kind: 'stream', tool: 'xz', formatArgs: ['--format=lzma'], levels: [0, 9] },
  zst: { kind: 'stream', tool: 'zstd', levels: [1, 19] },
  lz4: { kind: 'stream', tool: 'lz4', levels: [1, 12] },
  lz: { kind: 'stream', tool: 'lzip', levels: [0, 9] },
  lzo: { kind: 'stream', tool: 'lzop', levels: [1, 9] },
  br: { kind: 'stream', tool: 'brotli', levels: [0, 11] },
};

/** Whether a format takes a compression level, and its range. */
export function levelRange(format: ArchiveFormat): readonly [number, number] | undefined {
  if (format.kind === 'stream') return format.levels;
  const writer = format.writer;
  if (!writer) return undefined;
  if (writer.tool === '7zz') return [0, 9];
  if (!writer.levelOption) return undefined;
  return writer.filter === '--zstd' ? [1, 19] : writer.filter === '--xz' || writer.filter === '--lzma' ? [0, 9] : [1, 9];
}
