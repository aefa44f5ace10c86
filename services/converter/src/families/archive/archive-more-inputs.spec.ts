import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { ArchiveFamily } from './archive.family';
import { archiveLimitsConfig } from './archive-limits.config';
import { archiveProof } from './archive.proof';
import { loadConfig } from '@transmute/service-kit';

const INPUTS = ['rpm', 'apk', 'ipa', 'xpi', 'whl', 'nupkg', 'pax', 'cbt'];

/**
 * The packages and tarballs added for issue 24 (RPM, zip-based app and
 * library packages, pax, comic tarballs), every pair converted by the real
 * bsdtar / 7-Zip and read back by another program than the one that wrote
 * it: Python's tarfile and zipfile, or 7-Zip's own extraction for 7z, cpio,
 * ISO and xar (compressed tarballs first decompressed by their own tool).
 * Every file of the sample tree must come out byte for byte.
 */
describe('archive family: RPM, app packages, pax and cbt', () => {
  const family = new ArchiveFamily(loadConfig(archiveLimitsConfig));
  const proof = archiveProof();
  const signal = () => AbortSignal.timeout(60_000);
  const pairs = family.pairs().filter((pair) => INPUTS.includes(pair.inputFormat));
  let dir: string;
  let reader: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-more-'));
    reader = join(dir, 'read-archive.py');
    await writeFile(reader, READ_ARCHIVE);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists each input towards the writable containers (pax and cbt not towards tar: the same bytes)', () => {
    for (const input of INPUTS)
      expect(pairs.filter((pair) => pair.inputFormat === input).map((pair) => pair.outputFormat)).toEqual(expect.arrayContaining(['zip', '7z', 'tgz', 'iso']));
    expect(pairs.filter((pair) => pair.inputFormat === 'pax').map((pair) => pair.outputFormat)).not.toContain('tar');
  });

  it.each(pairs.map((pair) => [pair.inputFormat, pair.outputFormat]))('%s → %s keeps every file byte for byte', async (inputFormat, outputFormat) => {
    const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
    const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
    const outputPath = join(pairDir, `out.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    const expected = await hashTree(join(pairDir, 'tree'));
    expect(await readArchive(outputFormat, outputPath, pairDir)).toEqual(expected);
  });

  /** name → sha256 of every file in the output, by a reader that is not the writer. */
  async function readArchive(format: string, path: string, pairDir: string): Promise<Record<string, string>> {
    if (SEVEN_ZIP_READS.has(format)) {
      const out = await mkdtemp(join(pairDir, 'extracted-'));
      await runEngine({ command: '7zz', args: ['x', '-bd', '-y', `-o${out}`, path], timeoutMs: 60_000, signal: signal() });
      const files = await hashTree(out);
      // 7-Zip also extracts a xar's table of contents as a file.
      if (format === 'xar') delete files['[TOC].xml'];
      return files;
    }
    let archive = path;
    const unpack = DECOMPRESSORS[format];
    if (unpack) {
      archive = join(pairDir, 'decompressed.tar');
      await runEngine({ command: unpack[0]!, args: [...unpack.slice(1), path], stdoutFile: archive, timeoutMs: 60_000, signal: signal() });
    }
    const { stdout } = await runEngine({ command: 'python3', args: [reader, archive], timeoutMs: 60_000, signal: signal() });
    return JSON.parse(stdout) as Record<string, string>;
  }
});

/** 7-Zip reads these itself (a different program from bsdtar and from the family's 7-Zip writes of zip/7z). */
const SEVEN_ZIP_READS = new Set(['7z', 'cpio', 'iso', 'xar']);
/** Tarballs whose compression Python's tarfile does not read: decompressed by their own tool to stdout first. */
const DECOMPRESSORS: Record<string, string[]> = {
  tzst: ['zstd', '-d', '-c'],
  tzo: ['lzop', '-d', '-c'],
  tlz: ['xz', '--format=lzma', '-d', '-c'],
  taz: ['gzip', '-d', '-c'],
};

/** Python's zipfile or tarfile (plain, gzip, bzip2, xz): every regular file's path and sha256. */
const READ_ARCHIVE = `
import hashlib, json, sys, tarfile, zipfile
path = sys.argv[1]
files = {}
if zipfile.is_zipfile(path):
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.is_dir():
                files[info.filename.lstrip('./')] = hashlib.sha256(archive.read(info)).hexdigest()
else:
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile():
                files[member.name.lstrip('./')] = hashlib.sha256(archive.extractfile(member).read()).hexdigest()
print(json.dumps(files))
`;

async function hashTree(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const name of await readdir(folder)) {
      const path = join(folder, name);
      if ((await stat(path)).isDirectory()) await walk(path);
      else
        files[relative(root, path)] = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
    }
  };
  await walk(root);
  return files;
}
