import type { ContainerFormat, StreamFormat } from './archive-formats';

export interface EngineCall {
  command: string;
  args: string[];
  cwd?: string;
}

/** Entry names only, one per line. */
export function listCall(inputPath: string): EngineCall {
  return { command: 'bsdtar', args: ['-t', '-f', inputPath] };
}

/**
 * Extracts into `root` as plain files: no owners, permissions, ACLs, xattrs
 * or file flags from the archive. bsdtar also refuses ".." and absolute
 * paths and will not write through links; the names are checked before this
 * runs anyway, so the task fails with a clear reason rather than a partial result.
 */
export function extractCall(inputPath: string, root: string): EngineCall {
  return {
    command: 'bsdtar',
    args: ['-x', '-f', inputPath, '-C', root, '--no-same-owner', '--no-same-permissions', '--no-acls', '--no-xattrs', '--no-fflags'],
  };
}

/**
 * Packs everything in `root` into `outputPath`. Entry names never reach the
 * command line (bsdtar reads a NUL-separated list file, 7-Zip a wildcard), so
 * an entry called "-x" or "@evil" stays a name and not an argument.
 */
export function createCall(format: ContainerFormat, outputPath: string, root: string, listFile: string, level: number | undefined): EngineCall {
  const writer = format.writer;
  if (!writer) throw new Error('this format is only read');
  if (writer.tool === '7zz') {
    // 7-Zip expands the wildcard itself (dot files included); -snl stores links as links, never what they point to.
    const levelArgs = level !== undefined ? [`-mx=${level}`] : [];
    return { command: '7zz', args: ['a', `-t${writer.type}`, '-bd', '-y', '-snl', ...levelArgs, outputPath, '*'], cwd: root };
  }
  const args = ['-c', '-f', outputPath, '--format', writer.format];
  if (writer.filter) args.push(writer.filter);
  if (writer.levelOption && level !== undefined) args.push('--options', `${writer.levelOption}=${level}`);
  args.push('-C', root, '--null', '-T', listFile);
  return { command: 'bsdtar', args };
}

/** Decompresses `inputPath` (named `data.<ext>` in its folder) to `data` beside it. */
export function decompressCall(format: StreamFormat, inputPath: string, outputPath: string): EngineCall {
  switch (format.tool) {
    case 'zstd':
      return { command: 'zstd', args: ['-d', '-q', '-f', inputPath, '-o', outputPath] };
    case 'lz4':
      return { command: 'lz4', args: ['-d', '-q', '-f', inputPath, outputPath] };
    case 'lzop':
      return { command: 'lzop', args: ['-d', '-q', '-f', '-o', outputPath, inputPath] };
    case 'brotli':
      return { command: 'brotli', args: ['-d', '-f', '-o', outputPath, inputPath] };
    default:
      // gzip, bzip2, xz and lzip write `data` next to `data.<ext>` and -k keeps the input.
      return { command: format.tool, args: ['-d', '-k', '-f', ...(format.formatArgs ?? []), inputPath] };
  }
}

/** Compresses `inputPath` into `outputPath`. */
export function compressCall(format: StreamFormat, inputPath: string, outputPath: string, level: number | undefined): EngineCall {
  const levelArg = level !== undefined ? [`-${level}`] : [];
  switch (format.tool) {
    case 'zstd':
      return { command: 'zstd', args: ['-q', '-f', ...levelArg, inputPath, '-o', outputPath] };
    case 'lz4':
      return { command: 'lz4', args: ['-q', '-f', ...levelArg, inputPath, outputPath] };
    case 'lzop':
      return { command: 'lzop', args: ['-q', '-f', ...levelArg, '-o', outputPath, inputPath] };
    case 'brotli':
      return { command: 'brotli', args: ['-f', ...(level !== undefined ? ['-q', String(level)] : []), '-o', outputPath, inputPath] };
    default:
      // -c writes to stdout, which runEngine would hold in memory; instead the tool writes `<input>.<suffix>`.
      return { command: format.tool, args: ['-k', '-f', ...levelArg, ...(format.formatArgs ?? []), inputPath] };
  }
}
