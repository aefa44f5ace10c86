import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CUBE_OBJ } from './three-d.proof';
import { measurePly, readStep, threeDContentCheck } from './three-d.fidelity';

/** The 3d content check must fail a model that lost a face or moved. */
describe('3d content check', () => {
  let dir: string;
  let source: string;
  const check = threeDContentCheck();
  const signal = () => AbortSignal.timeout(60_000);
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const obj = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), '3d-fidelity-'));
    source = await obj('source.obj', CUBE_OBJ);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes the same box and fails one missing a face', async () => {
    expect(failed(await check({ inputFormat: 'obj', outputFormat: 'obj' }, source, await obj('same.obj', CUBE_OBJ), signal()))).toEqual([]);
    const open = CUBE_OBJ.split('\n')
      .filter((line) => line !== 'f 3 7 8 4')
      .join('\n');
    expect(failed(await check({ inputFormat: 'obj', outputFormat: 'obj' }, source, await obj('open.obj', open), signal()))).toEqual(['faces', 'surface area']);
  });

  it('fails a box that moved or swapped axes', async () => {
    const swapped = CUBE_OBJ.replace(/^v (\S+) (\S+) (\S+)$/gm, 'v $1 $3 $2');
    expect(failed(await check({ inputFormat: 'obj', outputFormat: 'obj' }, source, await obj('swapped.obj', swapped), signal()))).toEqual(['bounding box']);
  });

  it('measures ASCII PLY and STEP text', () => {
    const ply =
      'ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n';
    expect(measurePly(ply)).toMatchObject({ vertices: 4, triangles: 2, area: 1, min: [0, 0, 0], max: [1, 1, 0] });
    const step =
      "#1=CARTESIAN_POINT('',(0.0,0.0,0.0));\n#2=CARTESIAN_POINT('',(1.0,2.0,3.0));\n#3=CARTESIAN_POINT('',(4.0,5.0,6.0));\n#4=VERTEX_POINT('',#2);\n#5=VERTEX_POINT('',#3);\n";
    expect(readStep(step)).toMatchObject({ vertices: 2, min: [1, 2, 3], max: [4, 5, 6] });
  });
});
