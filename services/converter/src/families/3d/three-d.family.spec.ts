import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreeDFamily } from './three-d.family';
import { CUBE_OBJ } from './three-d.proof';

/** With the real assimp. */
describe('ThreeDFamily', () => {
  const family = new ThreeDFamily();
  let dir: string;
  let cube: string;
  let counter = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), '3d-family-'));
    cube = join(dir, 'cube.obj');
    await writeFile(cube, CUBE_OBJ);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const convert = async (outputFormat: string, options: Record<string, unknown> = {}, input = cube, inputFormat = 'obj', progress: number[] = []) => {
    const outputPath = join(dir, `out-${(counter += 1)}.${outputFormat}`);
    await family.convert({
      inputPath: input,
      outputPath,
      inputFormat,
      outputFormat,
      options,
      signal: new AbortController().signal,
      reportProgress: (percent) => progress.push(percent),
    });
    return readFile(outputPath);
  };

  it('converts obj to glb, reporting assimp progress', async () => {
    const progress: number[] = [];
    const glb = await convert('glb', {}, cube, 'obj', progress);
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((percent) => percent >= 0 && percent <= 100)).toBe(true);
  });

  it('encoding: binary stl by default, ascii when asked', async () => {
    const binary = await convert('stl');
    const ascii = await convert('stl', { encoding: 'ascii' });
    expect(ascii.subarray(0, 5).toString('latin1')).toBe('solid');
    expect(binary.toString('latin1')).not.toContain('facet normal');
    expect(ascii.toString('latin1')).toContain('facet normal');
  });

  it('join_vertices: shared corners become one vertex', async () => {
    const vertices = (ply: Buffer) => Number(/element vertex (\d+)/.exec(ply.toString('latin1'))?.[1]);
    const stl = join(dir, 'cube.stl');
    await writeFile(stl, await convert('stl'));
    const separate = await convert('ply', { encoding: 'ascii' }, stl, 'stl');
    const joined = await convert('ply', { encoding: 'ascii', join_vertices: true }, stl, 'stl');
    expect(vertices(separate)).toBe(36);
    // 8 corners x 3 faces: a corner keeps one vertex per face normal (STL stores flat normals).
    expect(vertices(joined)).toBe(24);
  });

  it("fails a file that is not a model with assimp's reason, as a permanent error", async () => {
    const broken = join(dir, 'broken.3ds');
    await writeFile(broken, 'not a model');
    await expect(convert('obj', {}, broken, '3ds')).rejects.toMatchObject({
      name: 'ServiceFailure',
      retryable: false,
      message: expect.stringContaining('assimp exited with code'),
    });
  });

  it('declares encoding only where a binary variant exists, and leaves out pairs the matrix failed', () => {
    const pairs = family.pairs();
    const names = (input: string, output: string) => pairs.find((pair) => pair.inputFormat === input && pair.outputFormat === output)?.options.map((option) => option.name);
    expect(names('obj', 'stl')).toEqual(['encoding']);
    expect(names('obj', 'ply')).toEqual(['encoding', 'join_vertices']);
    expect(names('obj', 'dae')).toEqual(['join_vertices']);
    // Narrowed where the option check measured no effect.
    expect(names('obj', 'glb')).toEqual([]);
    expect(names('ply', '3mf')).toBeUndefined();
    expect(names('obj', 'obj')).toBeUndefined();
  });
});
