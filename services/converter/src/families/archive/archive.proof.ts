import { open, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { ARCHIVE_FORMATS } from './archive-formats';
import { ARCHIVE_OPTION_CHECKS, archiveContentCheck } from './archive.fidelity';

/** Magic bytes of each format at their offset: the proof that a file is what its name says. */
const MAGIC: Record<string, { offset: number; bytes: Buffer }[]> = {
  zip: [{ offset: 0, bytes: Buffer.from('PK\x03\x04', 'latin1') }],
  jar: [{ offset: 0, bytes: Buffer.from('PK\x03\x04', 'latin1') }],
  war: [{ offset: 0, bytes: Buffer.from('PK\x03\x04', 'latin1') }],
  ear: [{ offset: 0, bytes: Buffer.from('PK\x03\x04', 'latin1') }],
  pax: [{ offset: 257, bytes: Buffer.from('ustar', 'latin1') }],
  cbt: [{ offset: 257, bytes: Buffer.from('ustar', 'latin1') }],
  warc: [{ offset: 0, bytes: Buffer.from('WARC/1.0', 'latin1') }],
  cab: [{ offset: 0, bytes: Buffer.from('MSCF', 'latin1') }],
  '7z': [{ offset: 0, bytes: Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) }],
  tar: [{ offset: 257, bytes: Buffer.from('ustar', 'latin1') }],
  tgz: [{ offset: 0, bytes: Buffer.from([0x1f, 0x8b]) }],
  gz: [{ offset: 0, bytes: Buffer.from([0x1f, 0x8b]) }],
  tbz2: [{ offset: 0, bytes: Buffer.from('BZh', 'latin1') }],
  tbz: [{ offset: 0, bytes: Buffer.from('BZh', 'latin1') }],
  bz2: [{ offset: 0, bytes: Buffer.from('BZh', 'latin1') }],
  txz: [{ offset: 0, bytes: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) }],
  xz: [{ offset: 0, bytes: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) }],
  tzst: [{ offset: 0, bytes: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]) }],
  zst: [{ offset: 0, bytes: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]) }],
  tlz: [{ offset: 0, bytes: Buffer.from([0x5d, 0x00, 0x00]) }],
  lzma: [{ offset: 0, bytes: Buffer.from([0x5d, 0x00, 0x00]) }],
  lz4: [{ offset: 0, bytes: Buffer.from([0x04, 0x22, 0x4d, 0x18]) }],
  taz: [{ offset: 0, bytes: Buffer.from([0x1f, 0x9d]) }],
  cpio: [{ offset: 0, bytes: Buffer.from('070701', 'latin1') }],
  iso: [{ offset: 0x8001, bytes: Buffer.from('CD001', 'latin1') }],
  xar: [{ offset: 0, bytes: Buffer.from('xar!', 'latin1') }],
  lz: [{ offset: 0, bytes: Buffer.from('LZIP', 'latin1') }],
  lzo: [{ offset: 0, bytes: Buffer.from([0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a]) }],
  tzo: [{ offset: 0, bytes: Buffer.from([0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a]) }],
};

/** bsdtar's names for the formats the samples are written in: a different writer from the family's own 7-Zip. */
const SAMPLE_WRITERS: Record<string, string[]> = {
  zip: ['--format', 'zip'],
  jar: ['--format', 'zip'],
  war: ['--format', 'zip'],
  ear: ['--format', 'zip'],
  apk: ['--format', 'zip'],
  ipa: ['--format', 'zip'],
  xpi: ['--format', 'zip'],
  whl: ['--format', 'zip'],
  nupkg: ['--format', 'zip'],
  pax: ['--format', 'pax'],
  cbt: ['--format', 'ustar'],
  '7z': ['--format', '7zip'],
  tar: ['--format', 'ustar'],
  tgz: ['--format', 'ustar', '--gzip'],
  tbz2: ['--format', 'ustar', '--bzip2'],
  tbz: ['--format', 'ustar', '--bzip2'],
  txz: ['--format', 'ustar', '--xz'],
  tzst: ['--format', 'ustar', '--zstd'],
  tlz: ['--format', 'ustar', '--lzma'],
  taz: ['--format', 'ustar', '--compress'],
  tzo: ['--format', 'ustar', '--lzop'],
  cpio: ['--format', 'newc'],
  iso: ['--format', 'iso9660'],
  xar: ['--format', 'xar'],
};

const STREAM_WRITERS: Record<string, (file: string) => { command: string; args: string[] }> = {
  gz: (file) => ({ command: 'gzip', args: ['-k', file] }),
  bz2: (file) => ({ command: 'bzip2', args: ['-k', file] }),
  xz: (file) => ({ command: 'xz', args: ['-k', file] }),
  lzma: (file) => ({ command: 'xz', args: ['-k', '--format=lzma', file] }),
  zst: (file) => ({ command: 'zstd', args: ['-q', file, '-o', `${file}.zst`] }),
  lz4: (file) => ({ command: 'lz4', args: ['-q', file, `${file}.lz4`] }),
  lz: (file) => ({ command: 'lzip', args: ['-k', file] }),
  lzo: (file) => ({ command: 'lzop', args: ['-q', file] }),
  br: (file) => ({ command: 'brotli', args: ['-k', file] }),
};

const STREAM_TESTERS: Record<string, string[]> = {
  gz: ['gzip', '-t'],
  bz2: ['bzip2', '-t'],
  xz: ['xz', '-t'],
  lzma: ['xz', '--format=lzma', '-t'],
  zst: ['zstd', '-q', '-t'],
  lz4: ['lz4', '-q', '-t'],
  lz: ['lzip', '-t'],
  lzo: ['lzop', '-q', '-t'],
  br: ['brotli', '-t'],
};

const TEXT = 'Transmute archive sample.\n'.repeat(200);
/** Bytes no compressor can shrink, from a fixed seed: a lost or altered byte shows in the comparison. */
export const BINARY = (() => {
  const bytes = Buffer.alloc(20_000);
  let state = 0x2545f491;
  for (let i = 0; i < bytes.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
})();
/** Text from a fixed seed that compresses well but not trivially, so compression levels differ. */
export function wordsText(bytes: number): string {
  const words = ['archive', 'transmute', 'level', 'stream', 'folder', 'byte', 'entry', 'header', 'sample', 'proof', 'data', 'zip'];
  let state = 7;
  let text = '';
  while (text.length < bytes) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += words[state % words.length] + (state % 9 === 0 ? '\n' : ' ');
  }
  return text;
}

async function run(command: string, args: string[], signal: AbortSignal, cwd?: string) {
  return runEngine({ command, args, cwd, timeoutMs: 60_000, signal });
}

/** A small tree: a text file, a file in a folder, random bytes in a deeper folder. */
async function writeTree(root: string, text: string): Promise<void> {
  await mkdir(join(root, 'docs', 'data'), { recursive: true });
  await writeFile(join(root, 'readme.txt'), text);
  await writeFile(join(root, 'docs', 'notes.md'), '# Notes\n\nSample entry.\n');
  await writeFile(join(root, 'docs', 'data', 'random.bin'), BINARY);
}

/** Files of the sample tree outside folders, for formats that hold no folders (ar, WARC, cabinet). */
const FLAT_ENTRIES = ['readme.txt', 'docs/notes.md', 'docs/data/random.bin'];

/** Writes a `format` sample of the tree into `dir`; `text` is the readme's content. */
export async function writeArchiveSample(format: string, dir: string, signal: AbortSignal, text = TEXT): Promise<string> {
  const tree = join(dir, 'tree');
  await writeTree(tree, text);
  const sample = join(dir, `sample.${format}`);
  const stream = STREAM_WRITERS[format];
  if (stream) {
    const file = join(dir, 'sample');
    await writeFile(file, text);
    const call = stream(file);
    await run(call.command, call.args, signal);
    return sample;
  }
  if (format === 'deb') {
    await mkdir(join(tree, 'DEBIAN'), { recursive: true });
    await writeFile(
      join(tree, 'DEBIAN', 'control'),
      'Package: transmute-sample\nVersion: 1.0\nArchitecture: all\nMaintainer: Transmute <dev@example.invalid>\nDescription: sample\n',
    );
    await run('dpkg-deb', ['--root-owner-group', '--build', tree, sample], signal);
    return sample;
  }
  if (format === 'ar' || format === 'warc') {
    // ar and WARC hold files only, no folders.
    await run('bsdtar', ['-c', '-f', sample, '--format', format === 'ar' ? 'argnu' : 'warc', '-C', tree, ...FLAT_ENTRIES], signal);
    return sample;
  }
  if (format === 'rpm') return writeRpmSample(tree, dir, sample, signal);
  if (format === 'cab') {
    await run('gcab', ['-c', sample, ...FLAT_ENTRIES], signal, tree);
    return sample;
  }
  const writer = SAMPLE_WRITERS[format];
  if (!writer) throw new Error(`no sample recipe for ${format}`);
  await run('bsdtar', ['-c', '-f', sample, ...writer, '-C', tree, 'readme.txt', 'docs'], signal);
  return sample;
}

export function archiveProof(): FamilyProof {
  return {
    family: 'archive',
    generateSample: (format, dir, signal) => writeArchiveSample(format, dir, signal),
    checkContent: archiveContentCheck(),
    optionChecks: ARCHIVE_OPTION_CHECKS,
    async verifyOutput(format, path) {
      const kind = ARCHIVE_FORMATS[format]?.kind;
      if (!kind) throw new Error(`the archive family does not write ${format}`);
      await expectMagic(format, path);
      const signal = AbortSignal.timeout(60_000);
      if (kind === 'stream') {
        const [command, ...args] = STREAM_TESTERS[format]!;
        await run(command!, [...args, path], signal);
        return;
      }
      const { stdout } = await run('bsdtar', ['-t', '-f', path], signal);
      if (stdout.trim() === '') throw new Error(`${format}: bsdtar lists no entries`);
      if (format === 'zip' || format === '7z') await run('7zz', ['t', '-bd', path], signal);
    },
  };
}

/** Streams with no signature at all (Brotli): only their decoder's test proves them. */
const UNSIGNED = new Set(['br']);

async function expectMagic(format: string, path: string): Promise<void> {
  const expected = MAGIC[format];
  if (!expected && UNSIGNED.has(format)) return;
  if (!expected) throw new Error(`no magic bytes known for ${format}`);
  const handle = await open(path, 'r');
  try {
    for (const { offset, bytes } of expected) {
      const found = Buffer.alloc(bytes.length);
      await handle.read(found, 0, bytes.length, offset);
      if (!found.equals(bytes)) throw new Error(`${format}: expected ${bytes.toString('hex')} at byte ${offset}, found ${found.toString('hex')}`);
    }
  } finally {
    await handle.close();
  }
}

/** rpmbuild (Debian's `rpm`, test-only) packs the tree as a noarch package: its payload is a cpio archive of the files. */
async function writeRpmSample(tree: string, dir: string, sample: string, signal: AbortSignal): Promise<string> {
  const spec = join(dir, 'sample.spec');
  const top = join(dir, 'rpmbuild');
  await writeFile(
    spec,
    [
      'Name: transmute-sample',
      'Version: 1.0',
      'Release: 1',
      'Summary: sample',
      'License: MIT',
      'BuildArch: noarch',
      '%description',
      'sample',
      '%install',
      'cp -a %{_sourcedir}/. %{buildroot}/',
      '%files',
      '/readme.txt',
      '/docs',
      '',
    ].join('\n'),
  );
  const define = (macro: string) => ['--define', macro];
  await runEngine({
    command: 'rpmbuild',
    args: ['-bb', ...define(`_topdir ${top}`), ...define(`_sourcedir ${tree}`), ...define(`_rpmdir ${top}`), ...define('__os_install_post %{nil}'), spec],
    env: { HOME: dir },
    timeoutMs: 120_000,
    signal,
  });
  await rename(join(top, 'noarch', 'transmute-sample-1.0-1.noarch.rpm'), sample);
  return sample;
}
