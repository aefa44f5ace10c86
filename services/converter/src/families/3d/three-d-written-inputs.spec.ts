import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundingBox, readMeshContent } from './three-d-mesh-readers.test-support';
import { ThreeDFamily } from './three-d.family';
import { threeDProof } from './three-d.proof';
import { WRITTEN_SAMPLES } from './three-d-written-samples';

/**
 * Every pair of the inputs whose samples the proof writes (and assbin, zae),
 * converted by the real assimp and read back by a parser of the output's own
 * format (three-d-mesh-readers): the tetrahedron's four triangles and its
 * bounding box, (1,2,3) to (2,4,6), must come out. Targets that turn the
 * model into other axes are held to the box's extents in any order.
 */
describe('3d family: inputs whose samples are written by hand', () => {
  const family = new ThreeDFamily();
  const proof = threeDProof();
  const signal = () => AbortSignal.timeout(60_000);
  const inputs = [...Object.keys(WRITTEN_SAMPLES), 'assbin', 'zae'];
  const pairs = family.pairs().filter((pair) => inputs.includes(pair.inputFormat));
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), '3d-written-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists every such input towards every output', () => {
    expect(new Set(pairs.map((pair) => pair.inputFormat))).toEqual(new Set(inputs));
    // Ten outputs each, less five towards 3MF (assimp's 3MF writer drops or breaks their meshes) and md5mesh → x3d.
    expect(pairs.length).toBe(inputs.length * 10 - 6);
  });

  it.each(pairs.map((pair) => [pair.inputFormat, pair.outputFormat]))('%s → %s keeps the four triangles and the bounding box', async (inputFormat, outputFormat) => {
    const pairDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
    const inputPath = await proof.generateSample(inputFormat, pairDir, signal());
    const outputPath = join(pairDir, `out.${outputFormat}`);
    await family.convert({ inputPath, outputPath, inputFormat, outputFormat, options: {}, signal: signal(), reportProgress: () => undefined });
    const content = await readMeshContent(outputPath, outputFormat, signal());
    expect(content.triangles).toBe(4);
    const { min, max } = boundingBox(content.points);
    const extents = max.map((value, i) => value - min[i]!);
    if (TURNED.has(inputFormat) || TURNED.has(outputFormat)) {
      expect([...extents].sort()).toEqual([1, 2, 3]);
    } else if (outputFormat === 'x') {
      // DirectX is left-handed: its files hold Z negated.
      expect({ min, max }).toEqual({ min: [1, 2, -6], max: [2, 4, -3] });
    } else {
      expect({ min, max }).toEqual({ min: [1, 2, 3], max: [2, 4, 6] });
    }
  });
});

/** Z-up formats, which assimp turns a quarter turn about X on the way in (MD5, 3ds Max's ASE) or out (3DS). */
const TURNED = new Set(['md5mesh', 'ase', 'ask', '3ds']);
