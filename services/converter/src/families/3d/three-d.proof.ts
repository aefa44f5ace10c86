import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { head as readHead } from '../../matrix/output-checks';
import { THREE_D_EXPORTERS } from './three-d-formats';
import { WRITTEN_SAMPLES, tetrahedronObj } from './three-d-written-samples';
import { THREE_D_NARROWED, THREE_D_OPTION_CHECKS, THREE_D_WITHDRAWN, threeDContentCheck } from './three-d.fidelity';

const TIMEOUT_MS = 60_000;

/**
 * A box of six quads, 1 x 2 x 3 and away from the origin, so a swapped or
 * flipped axis, a lost offset or a rescale shows in the bounding box: the
 * seed every other sample is exported from by assimp.
 */
export const CUBE_OBJ = [
  'o box',
  'v 1 2 3',
  'v 2 2 3',
  'v 2 4 3',
  'v 1 4 3',
  'v 1 2 6',
  'v 2 2 6',
  'v 2 4 6',
  'v 1 4 6',
  'f 1 2 3 4',
  'f 5 8 7 6',
  'f 1 5 6 2',
  'f 2 6 7 3',
  'f 3 7 8 4',
  'f 5 1 4 8',
  '',
].join('\n');
/** Text formats assimp reads but cannot write: a triangle each, written as the format's own text. */
const TEXT_SAMPLES: Record<string, string> = {
  off: 'OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n3 0 1 3\n3 0 2 3\n3 1 2 3\n',
  nff: 'v\nfrom 0 0 5\nat 0 0 0\nup 0 1 0\nangle 45\nhither 1\nresolution 64 64\nf 1 0 0 0 0 0 0 0\np 3\n0 0 0\n1 0 0\n0 1 0\n',
  ac: [
    'AC3Db',
    'MATERIAL "" rgb 1 1 1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0.5 0.5 0.5  shi 10  trans 0',
    'OBJECT world',
    'kids 1',
    'OBJECT poly',
    'name "tri"',
    'numvert 3',
    '0 0 0',
    '1 0 0',
    '0 1 0',
    'numsurf 1',
    'SURF 0x10',
    'mat 0',
    'refs 3',
    '0 0 0',
    '1 1 0',
    '2 0 1',
    'kids 0',
    '',
  ].join('\n'),
  amf: [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<amf unit="millimeter"><object id="0"><mesh><vertices>',
    ...['0 0 0', '1 0 0', '0 1 0'].map((v) => {
      const [x, y, z] = v.split(' ');
      return `<vertex><coordinates><x>${x}</x><y>${y}</y><z>${z}</z></coordinates></vertex>`;
    }),
    '</vertices><volume><triangle><v1>0</v1><v2>1</v2><v3>2</v3></triangle></volume></mesh></object></amf>',
    '',
  ].join('\n'),
  dxf: [
    '0',
    'SECTION',
    '2',
    'ENTITIES',
    '0',
    '3DFACE',
    '8',
    '0',
    '10',
    '0.0',
    '20',
    '0.0',
    '30',
    '0.0',
    '11',
    '1.0',
    '21',
    '0.0',
    '31',
    '0.0',
    '12',
    '0.0',
    '22',
    '1.0',
    '32',
    '0.0',
    '13',
    '0.0',
    '23',
    '1.0',
    '33',
    '0.0',
    '0',
    'ENDSEC',
    '0',
    'EOF',
    '',
  ].join('\n'),
  gltf: gltfTriangle(),
  smd: [
    'version 1',
    'nodes',
    '0 "root" -1',
    'end',
    'skeleton',
    'time 0',
    '0 0 0 0 0 0 0',
    'end',
    'triangles',
    'mat',
    '0 0 0 0 0 0 1 0 0',
    '0 1 0 0 0 0 1 1 0',
    '0 0 1 0 0 0 1 0 1',
    'end',
    '',
  ].join('\n'),
};

/** assimp exporter for each sample it can write itself. */
const SAMPLE_EXPORTERS: Record<string, string> = {
  stl: 'stlb',
  ply: 'plyb',
  glb: 'glb2',
  dae: 'collada',
  '3ds': '3ds',
  x: 'x',
  x3d: 'x3d',
  '3mf': '3mf',
};

export function threeDProof(): FamilyProof {
  const run = (args: string[], signal: AbortSignal) => runEngine({ command: 'assimp', args, timeoutMs: TIMEOUT_MS, signal });
  return {
    family: '3d',
    checkContent: threeDContentCheck(),
    optionChecks: THREE_D_OPTION_CHECKS,
    withdrawn: THREE_D_WITHDRAWN,
    narrowed: THREE_D_NARROWED,

    async generateSample(format: string, dir: string, signal: AbortSignal): Promise<string> {
      const sample = join(dir, `sample.${format}`);
      const cube = join(dir, 'cube.obj');
      await writeFile(cube, CUBE_OBJ);
      if (format === 'obj') return cube;
      const written = WRITTEN_SAMPLES[format];
      if (written) {
        await writeFile(sample, written());
        return sample;
      }
      if (format === 'assbin' || format === 'zae') return packTetrahedron(format, dir, sample, signal);
      const text = TEXT_SAMPLES[format];
      if (text) {
        await writeFile(sample, text);
        return sample;
      }
      const exporter = SAMPLE_EXPORTERS[format];
      if (!exporter) throw new Error(`no way to make a ${format} sample`);
      await run(['export', cube, sample, `-f${exporter}`], signal);
      return sample;
    },

    async verifyOutput(format: string, path: string): Promise<void> {
      if (!THREE_D_EXPORTERS[format]) throw new Error(`no exporter declared for ${format}`);
      const head = await readHead(path, 32);
      if (format === 'stp') {
        if (!head.toString('latin1').startsWith('ISO-10303-21')) throw new Error('the stp output has no ISO-10303-21 header');
        return;
      }
      if (format === 'glb' && head.subarray(0, 4).toString('latin1') !== 'glTF') throw new Error('the glb output has no glTF signature');
      if (format === '3mf' && head.subarray(0, 2).toString('latin1') !== 'PK') throw new Error('the 3mf output is not a zip package');
      // Read back by assimp's importer for that format: the result must hold a mesh with faces.
      const { stdout } = await run(['info', path], AbortSignal.timeout(TIMEOUT_MS));
      const faces = Number(/^Faces:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
      if (faces < 1) throw new Error(`assimp reads no faces from the ${format} output`);
    },
  };
}

/** A glTF 2.0 triangle with its vertex buffer inline as a data URI: one self-contained file. */
function gltfTriangle(): string {
  const positions = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  return JSON.stringify({
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ uri: `data:application/octet-stream;base64,${positions.toString('base64')}`, byteLength: positions.length }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: positions.length, target: 34962 }],
    accessors: [{ bufferView: 0, byteOffset: 0, componentType: 5126, count: 3, type: 'VEC3', max: [1, 1, 0], min: [0, 0, 0] }],
  });
}

/** assimp's binary dump of the tetrahedron, or its COLLADA zipped with the manifest that names it (zae). */
async function packTetrahedron(format: 'assbin' | 'zae', dir: string, sample: string, signal: AbortSignal): Promise<string> {
  const seed = join(dir, 'tetrahedron.obj');
  await writeFile(seed, tetrahedronObj());
  const assimp = (args: string[]) => runEngine({ command: 'assimp', args, timeoutMs: TIMEOUT_MS, signal });
  if (format === 'assbin') {
    await assimp(['export', seed, sample, '-fassbin']);
    return sample;
  }
  const packed = join(dir, 'zae');
  await mkdir(packed, { recursive: true });
  await assimp(['export', seed, join(packed, 'model.dae'), '-fcollada']);
  await writeFile(join(packed, 'manifest.xml'), '<?xml version="1.0" encoding="utf-8"?>\n<dae_root>./model.dae</dae_root>\n');
  await runEngine({ command: 'bsdtar', args: ['--format', 'zip', '-cf', sample, '-C', packed, 'manifest.xml', 'model.dae'], timeoutMs: TIMEOUT_MS, signal });
  return sample;
}
