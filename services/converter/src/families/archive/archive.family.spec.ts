import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ArchiveFamily } from './archive.family';
import type { ArchiveLimits } from './archive-limits.config';

const exec = promisify(execFile);
const LIMITS: ArchiveLimits = { maxExpandedMb: 2048, maxRatio: 200, maxEntries: 100_000 };

/** Builds an archive with Python's tarfile/zipfile, which write any entry we ask for, hostile ones included. */
async function python(script: string): Promise<void> {
  await exec('python3', ['-c', script]);
}

describe('ArchiveFamily (real bsdtar and 7-Zip)', () => {
  const family = new ArchiveFamily(LIMITS);
  let dir: string;
  let tree: string;
  let count = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-family-'));
    tree = join(dir, 'tree');
    await mkdir(join(tree, 'docs'), { recursive: true });
    // Text with some variety, so compression levels make a difference.
    const words = Array.from({ length: 60_000 }, (_, i) => `word${(i * 7919) % 5003}`).join(' ');
    await writeFile(join(tree, 'readme.txt'), words);
    await writeFile(join(tree, 'docs', 'notes.md'), '# Notes\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const convert = (inputPath: string, inputFormat: string, outputFormat: string, options: Record<string, unknown> = {}, on = family) => {
    const outputPath = join(dir, `out-${count++}.${outputFormat}`);
    return on
      .convert({ inputPath, outputPath, inputFormat, outputFormat, options, signal: new AbortController().signal, reportProgress: () => undefined })
      .then(async () => ({ path: outputPath, size: (await stat(outputPath)).size }));
  };
  const zipOfTree = async () => {
    const path = join(dir, `tree-${count++}.zip`);
    await exec('bsdtar', ['-c', '-f', path, '--format', 'zip', '-C', tree, 'readme.txt', 'docs']);
    return path;
  };

  it('converts zip to tgz keeping every entry and its bytes', async () => {
    const { path } = await convert(await zipOfTree(), 'zip', 'tgz');
    const { stdout } = await exec('bsdtar', ['-t', '-f', path]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['docs/', 'docs/notes.md', 'readme.txt']);
    const out = join(dir, 'check');
    await mkdir(out);
    await exec('bsdtar', ['-x', '-f', path, '-C', out]);
    expect(await readFile(join(out, 'readme.txt'), 'utf8')).toBe(await readFile(join(tree, 'readme.txt'), 'utf8'));
  });

  it.each([
    ['zip', 0, 9],
    ['7z', 1, 9],
    ['txz', 0, 9],
    ['tgz', 1, 9],
  ])('honours compression_level for %s: level %i is larger than level %i', async (format, low, high) => {
    const zip = await zipOfTree();
    const fast = await convert(zip, 'zip', format, { compression_level: low });
    const small = await convert(zip, 'zip', format, { compression_level: high });
    expect(fast.size).toBeGreaterThan(small.size);
  });

  it('honours compression_level for a single stream (gz to zst)', async () => {
    const gz = join(dir, 'words.txt');
    await writeFile(gz, await readFile(join(tree, 'readme.txt')));
    await exec('gzip', ['-k', gz]);
    const fast = await convert(`${gz}.gz`, 'gz', 'zst', { compression_level: 1 });
    const small = await convert(`${gz}.gz`, 'gz', 'zst', { compression_level: 19 });
    expect(fast.size).toBeGreaterThan(small.size);
    const { stdout } = await exec('zstd', ['-d', '-c', small.path], { maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toBe(await readFile(gz, 'utf8'));
  });

  it.each([
    ['lz', 'lzip', 0, 9],
    ['lzo', 'lzop', 1, 9],
    ['br', 'brotli', 0, 11],
  ])('converts gz to %s and back byte for byte, read by %s itself, with its level range', async (format, tool, low, high) => {
    const text = join(dir, `words-${format}.txt`);
    // Words in no fixed cycle: on the readme's short cycle lzip's -1 beats its -9 (a bigger dictionary to describe).
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    await writeFile(text, Array.from({ length: 80_000 }, () => `w${next() % 20_000}`).join(' '));
    await exec('gzip', ['-k', text]);
    const fast = await convert(`${text}.gz`, 'gz', format, { compression_level: low });
    const small = await convert(`${text}.gz`, 'gz', format, { compression_level: high });
    expect(fast.size).toBeGreaterThan(small.size);
    const { stdout } = await exec(tool, ['-d', '-c', small.path], { maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toBe(await readFile(text, 'utf8'));
    const back = await convert(small.path, format, 'gz');
    expect((await exec('gzip', ['-d', '-c', back.path], { maxBuffer: 16 * 1024 * 1024 })).stdout).toBe(await readFile(text, 'utf8'));
  });

  it('converts zip to tzo (tar.lzo) keeping every entry, read back by lzop and bsdtar', async () => {
    const { path } = await convert(await zipOfTree(), 'zip', 'tzo');
    const tarPath = join(dir, 'from-tzo.tar');
    await exec('lzop', ['-d', '-q', '-o', tarPath, path]);
    const out = join(dir, 'check-tzo');
    await mkdir(out);
    await exec('bsdtar', ['-x', '-f', tarPath, '-C', out]);
    expect(await readFile(join(out, 'readme.txt'), 'utf8')).toBe(await readFile(join(tree, 'readme.txt'), 'utf8'));
    expect(await readFile(join(out, 'docs', 'notes.md'), 'utf8')).toBe('# Notes\n');
  });

  it.each([
    ['a ".." entry', 'import tarfile,io\nt=tarfile.open(P,"w")\ni=tarfile.TarInfo("../evil.txt");d=b"x";i.size=1\nt.addfile(i,io.BytesIO(d));t.close()', 'path traversal'],
    ['an absolute entry', 'import zipfile\nz=zipfile.ZipFile(P,"w")\nz.writestr(zipfile.ZipInfo("/tmp/evil.txt"),"x");z.close()', 'absolute path'],
    [
      'a link out of the tree',
      'import tarfile\nt=tarfile.open(P,"w")\ni=tarfile.TarInfo("passwd");i.type=tarfile.SYMTYPE;i.linkname="/etc/passwd"\nt.addfile(i);t.close()',
      'points outside',
    ],
    [
      'a relative link climbing out',
      'import tarfile\nt=tarfile.open(P,"w")\ni=tarfile.TarInfo("a/up");i.type=tarfile.SYMTYPE;i.linkname="../../secret"\nt.addfile(i);t.close()',
      'points outside',
    ],
    ['a device node', 'import tarfile\nt=tarfile.open(P,"w")\ni=tarfile.TarInfo("disk");i.type=tarfile.CHRTYPE;i.devmajor=1;i.devminor=3\nt.addfile(i);t.close()', 'device'],
  ])('refuses an archive with %s, then keeps converting', async (_name, script, reason) => {
    const isZip = script.includes('zipfile');
    const path = join(dir, `hostile-${count++}.${isZip ? 'zip' : 'tar'}`);
    await python(script.replace(/\bP\b/g, JSON.stringify(path)));
    await expect(convert(path, isZip ? 'zip' : 'tar', '7z')).rejects.toMatchObject({
      name: 'ServiceFailure',
      retryable: false,
      message: expect.stringContaining(reason),
    });
    expect((await convert(await zipOfTree(), 'zip', 'tar')).size).toBeGreaterThan(0);
  });

  it('refuses a zip bomb by its expansion ratio while extracting', async () => {
    const bomb = join(dir, 'bomb.zip');
    await python(
      `import zipfile\nz=zipfile.ZipFile(${JSON.stringify(bomb)},"w",zipfile.ZIP_DEFLATED)\nfor n in range(4): z.writestr(f"zeros{n}.bin", bytes(64*1024*1024))\nz.close()`,
    );
    expect((await stat(bomb)).size).toBeLessThan(1024 * 1024);
    await expect(convert(bomb, 'zip', 'tgz')).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('expands more than 200 times') });
  });

  it('refuses a compressed stream bomb (gz of zeros)', async () => {
    const bomb = join(dir, 'zeros');
    await python(`open(${JSON.stringify(bomb)},"wb").write(bytes(128*1024*1024))`);
    await exec('gzip', ['-f', bomb]);
    await expect(convert(`${bomb}.gz`, 'gz', 'xz')).rejects.toMatchObject({ message: expect.stringContaining('zip bomb') });
  });

  it('refuses an archive past the total size limit, and one with too many entries', async () => {
    const strict = new ArchiveFamily({ maxExpandedMb: 1, maxRatio: 1000, maxEntries: 5 });
    const big = join(dir, 'big.tar');
    await python(
      `import tarfile,io,os\nt=tarfile.open(${JSON.stringify(big)},"w")\ni=tarfile.TarInfo("random.bin");d=os.urandom(3*1024*1024);i.size=len(d)\nt.addfile(i,io.BytesIO(d));t.close()`,
    );
    await expect(convert(big, 'tar', 'zip', {}, strict)).rejects.toMatchObject({ message: expect.stringContaining('expands past 1 MiB') });
    const many = join(dir, 'many.tar');
    await python(
      `import tarfile,io\nt=tarfile.open(${JSON.stringify(many)},"w")\nfor n in range(10):\n  i=tarfile.TarInfo(f"f{n}.txt");i.size=1;t.addfile(i,io.BytesIO(b"x"))\nt.close()`,
    );
    await expect(convert(many, 'tar', 'zip', {}, strict)).rejects.toMatchObject({ message: expect.stringContaining('more than 5 entries') });
  });

  it('fails a corrupt archive with a clear message', async () => {
    const broken = join(dir, 'broken.7z');
    await writeFile(broken, 'not an archive');
    await expect(convert(broken, '7z', 'zip')).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('could not convert the 7z archive') });
  });

  it('lists containers to containers and streams to streams, with the level range of each target', () => {
    const pairs = family.pairs();
    expect(pairs.some((p) => p.inputFormat === 'gz' && p.outputFormat === 'zip')).toBe(false);
    expect(pairs.some((p) => p.inputFormat === 'tbz' && p.outputFormat === 'tbz2')).toBe(false);
    expect(pairs.some((p) => p.outputFormat === 'deb')).toBe(false);
    const level = (output: string) => pairs.find((p) => p.inputFormat === 'zip' && p.outputFormat === output)?.options[0];
    expect([level('tzst')?.min, level('tzst')?.max]).toEqual([1n, 19n]);
    expect(level('tar')).toBeUndefined();
  });
});
