/**
 * The 3d family's manifest data, by lowercase extension. Inputs are the
 * formats assimp imports and the matrix can make a sample of (by assimp's
 * own exporters, or as a few lines of text for the text formats; glTF as
 * JSON with its buffer inline, since assimp writes it as two files); outputs are
 * assimp's exporters whose result assimp reads back (its FBX writer is left
 * out: assimp cannot read what it writes) or, for STEP, that carry the
 * ISO 10303-21 header.
 */
export const THREE_D_INPUTS = ['obj', 'stl', 'ply', 'glb', 'gltf', 'dae', '3ds', 'x', 'x3d', '3mf', 'off', 'nff', 'ac', 'amf', 'smd', 'dxf'] as const;

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
