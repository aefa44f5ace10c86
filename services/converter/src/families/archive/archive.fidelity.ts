import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { type ContentCheck, type Finding, Findings } from '../../matrix/fidelity/findings';
import type { OptionCheck } from '../../matrix/fidelity/option-checks';
import { toolsPython } from '../../matrix/fidelity/tools-python';
import { ARCHIVE_FORMATS } from './archive-formats';
import { wordsText, writeArchiveSample } from './archive.proof';

/** Containers that are a tar inside one compressed stream: 7-Zip opens them in two steps. */
const COMPRESSED_TARS = new Set(['tgz', 'tbz2', 'tbz', 'txz', 'tzst', 'tlz', 'taz']);
/** Tars inside a stream 7-Zip does not read, by the stream's format. */
const TAR_IN_STREAM: Record<string, string> = { tzo: 'lzo' };
const TIMEOUT_MS = 120_000;
/** Formats 7-Zip does not read as the family does, and why: bsdtar (the family's own reader) reads them. */
const BSDTAR_READS: Record<string, string> = { deb: "7-Zip opens a .deb's data.tar, not its ar members", warc: '7-Zip reads no WARC' };

export interface ArchiveTree {
  /** Path inside the archive (or "(stream)") → SHA-256 and size of its bytes. */
  files: Map<string, { sha256: string; size: number }>;
  reader: string;
}

/** Streams 7-Zip does not decompress: who does instead, writing the data to stdout, and why. */
const STREAM_READERS: Record<string, { command: () => Promise<string>; args: (path: string) => string[]; reader: string }> = {
  lz4: { command: async () => 'lz4', args: (path) => ['-d', '-c', '-q', path], reader: 'lz4 (7-Zip reads no LZ4)' },
  lz: { command: async () => 'bsdcat', args: (path) => [path], reader: "libarchive's own lzip decoder, bsdcat (7-Zip reads no lzip)" },
  lzo: { command: async () => 'lzop', args: (path) => ['-d', '-c', '-q', path], reader: 'lzop (7-Zip reads no lzop; libarchive runs lzop itself)' },
  br: {
    command: toolsPython,
    args: (path) => ['-c', 'import brotli, sys; sys.stdout.buffer.write(brotli.decompress(open(sys.argv[1], "rb").read()))', path],
    reader: "Python's brotli module (7-Zip and libarchive read no Brotli)",
  },
};

/**
 * Reads an archive the way an independent user would: 7-Zip extracts it
 * (bsdtar only where 7-Zip cannot, e.g. WARC), then every regular file is
 * hashed. A single compressed stream is decompressed by 7-Zip (or the reader
 * STREAM_READERS names) into one file.
 */
export async function readArchive(path: string, format: string, dir: string, signal: AbortSignal): Promise<ArchiveTree> {
  const out = await mkdtemp(join(dir, 'extract-'));
  const run = (command: string, args: string[], extra: { stdoutFile?: string; cwd?: string } = {}) => runEngine({ command, args, timeoutMs: TIMEOUT_MS, signal, ...extra });
  const decompress = async (stream: string, streamFormat: string, data: string): Promise<string> => {
    const other = STREAM_READERS[streamFormat];
    if (other) await run(await other.command(), other.args(stream), { stdoutFile: data });
    else await run('7zz', ['e', '-so', '-bd', stream], { stdoutFile: data });
    return other?.reader ?? '7-Zip';
  };
  if (ARCHIVE_FORMATS[format]?.kind === 'stream') {
    const data = join(out, 'data');
    const reader = await decompress(path, format, data);
    return { files: new Map([['(stream)', await hashOf(data)]]), reader };
  }
  // 7-Zip opens a .deb's data.tar rather than its ar members (and reads no WARC): bsdtar reads those.
  const bsdtarOnly = BSDTAR_READS[format];
  if (bsdtarOnly) {
    await run('bsdtar', ['-x', '-f', path, '-C', out]);
    return { files: await hashTree(out), reader: `bsdtar (${bsdtarOnly})` };
  }
  const extract = (archive: string, into: string) => run('7zz', ['x', '-bd', '-y', '-snld', `-o${into}`, archive]);
  /** The one file 7-Zip found inside a wrapper (a compressed tar's tar, an RPM's cpio payload), extracted in turn. */
  const unwrap = async (suffix: string): Promise<Map<string, { sha256: string; size: number }>> => {
    const inner = (await readdir(out)).filter((name) => name.endsWith(suffix) || !name.includes('.'));
    if (inner.length !== 1) throw new Error(`7-Zip found ${inner.length} ${suffix} files inside the ${format}`);
    const tree = await mkdtemp(join(dir, 'extract-inner-'));
    await extract(join(out, inner[0]!), tree);
    return hashTree(tree);
  };
  try {
    const lzopTar = TAR_IN_STREAM[format];
    if (lzopTar) {
      // 7-Zip reads no lzop: the tar comes out of its stream first, then 7-Zip reads the tar.
      const reader = await decompress(path, lzopTar, join(out, 'data.tar'));
      return { files: await unwrap('.tar'), reader: `${reader}, then 7-Zip for the tar` };
    }
    await extract(path, out);
    if (COMPRESSED_TARS.has(format)) return { files: await unwrap('.tar'), reader: '7-Zip' };
    if (format === 'rpm') return { files: await unwrap('.cpio'), reader: "7-Zip (the RPM's cpio payload)" };
  } catch (error) {
    throw new Error(`7-Zip cannot read the ${format}: ${(error as Error).message}`);
  }
  const files = await hashTree(out);
  // 7-Zip shows a xar's table of contents as a file; it is the archive's index, not an entry.
  if (format === 'xar') files.delete('[TOC].xml');
  return { files, reader: '7-Zip' };
}

async function hashOf(path: string): Promise<{ sha256: string; size: number }> {
  const bytes = await readFile(path);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

async function hashTree(root: string): Promise<Map<string, { sha256: string; size: number }>> {
  const files = new Map<string, { sha256: string; size: number }>();
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.set(relative(root, path), await hashOf(path));
      else if ((await stat(path)).isFile()) files.set(relative(root, path), await hashOf(path));
    }
  };
  await walk(root);
  return files;
}

/** The same file list and every file byte for byte. */
export function compareTrees(source: ArchiveTree, output: ArchiveTree): Finding[] {
  const findings = new Findings();
  findings.expect('reader', true, `source read by ${source.reader}, output by ${output.reader}`);
  const names = (tree: ArchiveTree) => [...tree.files.keys()].sort();
  const missing = names(source).filter((name) => !output.files.has(name));
  const extra = names(output).filter((name) => !source.files.has(name));
  findings.expect(
    'file list',
    missing.length === 0 && extra.length === 0,
    missing.length + extra.length === 0
      ? `${source.files.size} files, the same names`
      : `missing: ${missing.join(', ') || 'none'}; not in the source: ${extra.join(', ') || 'none'}`,
  );
  const changed = names(source).filter((name) => output.files.has(name) && output.files.get(name)!.sha256 !== source.files.get(name)!.sha256);
  const bytes = [...source.files.values()].reduce((sum, file) => sum + file.size, 0);
  findings.expect(
    'bytes',
    changed.length === 0 && missing.length === 0,
    changed.length === 0 ? `every file byte for byte (${bytes} bytes, SHA-256)` : `different bytes: ${changed.join(', ')}`,
  );
  return findings.list;
}

/** The archive family's content check: the source and the output read by 7-Zip, compared file by file. */
export function archiveContentCheck(): ContentCheck {
  const sources = new Map<string, Promise<ArchiveTree>>();
  return async (pair, sourcePath, outputPath, signal) => {
    let source = sources.get(sourcePath);
    if (!source) {
      source = readArchive(sourcePath, pair.inputFormat, dirname(sourcePath), signal);
      sources.set(sourcePath, source);
    }
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      // Both settle before the scratch folder goes: a failed source must not remove it under the output's extraction.
      const [tree, out] = await Promise.allSettled([source, readArchive(outputPath, pair.outputFormat, scratch, signal)]);
      if (tree.status === 'rejected') throw tree.reason;
      if (out.status === 'rejected') throw out.reason;
      return compareTrees(tree.value, out.value);
    } catch (error) {
      return [{ check: 'read', passed: false, detail: (error as Error).message.replace(/\s+/g, ' ').slice(0, 300) }];
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

export const ARCHIVE_OPTION_CHECKS: OptionCheck[] = [
  {
    option: 'compression_level',
    promise: 'a higher level gives a smaller archive with the same files',
    inputs: ['zip', 'gz', 'tar'],
    // 300 KB of seeded text: compressible, and sensitive to how hard the compressor works.
    source: (format, dir, signal) => writeArchiveSample(format, dir, signal, wordsText(300_000)),
    runs: (pair) => {
      const option = pair.options.find((candidate) => candidate.name === 'compression_level');
      return [{ compression_level: Number(option?.min ?? 1) }, { compression_level: Number(option?.max ?? 9) }];
    },
    async verify(run, [low, high]) {
      const findings = new Findings();
      const [fast, small] = [(await stat(run.first)).size, (await stat(run.second)).size];
      findings.expect('size', small < fast, `level ${String(low['compression_level'])}: ${fast} bytes, level ${String(high['compression_level'])}: ${small} bytes`);
      const source = await readArchive(run.source, run.pair.inputFormat, run.scratch, run.signal);
      for (const path of [run.first, run.second]) {
        for (const finding of compareTrees(source, await readArchive(path, run.pair.outputFormat, run.scratch, run.signal))) {
          if (finding.check !== 'reader') findings.expect(`${finding.check} (${path === run.first ? 'lowest' : 'highest'} level)`, finding.passed, finding.detail);
        }
      }
      return findings.list;
    },
  },
];
