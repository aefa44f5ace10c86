/**
 * The 3d family's manifest data, by lowercase extension. Inputs are the
 * formats assimp imports and the matrix can make a sample of (by assimp's
 * own exporters, or as a few lines of text for the text formats; glTF as
 * JSON with its buffer inline, since assimp writes it as two files); outputs are
 * assimp's exporters whose result assimp reads back (its FBX writer is left
 * out: assimp cannot read what it writes) or, for STEP, that carry the
 * ISO 10303-21 header.
 */

/**
 * Inputs no engine here writes, whose samples the proof writes from each
 * format's layout (three-d-written-samples.ts) or packs from assimp's own
 * output: its binary dump (assbin) and zipped COLLADA (zae).
 */
const WRITTEN_INPUTS = ['raw', 'ase', 'ask', 'cob', 'scn', 'enff', 'md5mesh', 'ms3d', 'xgl', 'zgl', 'assbin', 'zae'] as const;

export const THREE_D_INPUTS = ['obj', 'stl', 'ply', 'glb', 'gltf', 'dae', '3ds', 'x', 'x3d', '3mf', 'off', 'nff', 'ac', 'amf', 'smd', 'dxf', ...WRITTEN_INPUTS] as const;

/** Output extension → assimp exporter id; `binary` picks the binary variant where one exists. */
export const THREE_D_EXPORTERS: Record<string, { text: string; binary?: string }> = {
  obj: { text: 'objnomtl' },
  stl: { text: 'stl', binary: 'stlb' },
  ply: { text: 'ply', binary: 'plyb' },
  glb: { text: 'glb2' },
  dae: { text: 'collada' },
  '3ds': { text: '3ds' },
  x: { text: 'x' },
  x3d: { text: 'x3d' },
  '3mf': { text: '3mf' },
  stp: { text: 'stp' },
};

export const ENCODINGS = ['binary', 'ascii'] as const;

/**
 * Pairs the matrix failed, left out rather than listed: assimp's 3MF writer
 * drops the mesh of scenes from these importers (the result has no mesh),
 * its triangulation asserts on AMF volumes written out as PLY, its PLY writer
 * indexes DXF faces out of range, and its X3D
 * writer emits a texture URL its own reader rejects for SMD materials.
 */
export const THREE_D_UNSUPPORTED_PAIRS = new Set([
  // The 3MF writer drops these importers' meshes too (three-d-written-inputs.spec.ts found it).
  'raw->3mf',
  'ase->3mf',
  'ask->3mf',
  'ms3d->3mf',
  // MD5's joint becomes an empty object in the 3MF build, which trimesh refuses (KeyError), and the mesh loses
  // the node turn assimp reads MD5 with: the fidelity check found both.
  'md5mesh->3mf',
  // MD5 materials name a texture: the X3D writer emits its URL as a bare string, which X3D readers refuse.
  'md5mesh->x3d',
  'ply->3mf',
  '3ds->3mf',
  'x->3mf',
  'x3d->3mf',
  'off->3mf',
  'nff->3mf',
  'smd->3mf',
  'gltf->3mf',
  'dxf->3mf',
  'dxf->ply',
  'amf->ply',
  'smd->x3d',
]);

/** What a pair loses by the nature of its target: assimp turns a model into 3DS's Z-up axes (the fidelity check measured it). */
export function threeDPairNote(outputFormat: string): string | undefined {
  return outputFormat === '3ds' ? "the model is turned a quarter turn about X, into 3DS's Z-up axes" : undefined;
}
