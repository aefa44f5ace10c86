import { deflateSync } from 'node:zlib';

/**
 * Samples of formats assimp reads and no engine here writes (game engines,
 * trueSpace, 3ds Max's ASCII export, XGL), written byte by byte from each
 * format's published layout. All hold one tetrahedron: four corners away from
 * the origin, four triangles, a bounding box of (1,2,3) to (2,4,6), so a
 * dropped face, a swapped axis or a lost offset shows in what comes out.
 */
export const TETRAHEDRON = {
  vertices: [
    [1, 2, 3],
    [2, 2, 3],
    [1, 4, 3],
    [1, 2, 6],
  ],
  /** Counter-clockwise seen from outside. */
  triangles: [
    [0, 2, 1],
    [0, 1, 3],
    [0, 3, 2],
    [1, 2, 3],
  ],
} as const;

const { vertices, triangles } = TETRAHEDRON;
const fixed = (value: number) => value.toFixed(6);

/** assimp's RAW: one triangle per line as nine numbers, after a line naming the group. */
function raw(): Buffer {
  const lines = triangles.map((triangle) => triangle.flatMap((index) => vertices[index]).join(' '));
  return Buffer.from(['tetrahedron', ...lines, ''].join('\n'));
}

/** 3ds Max's ASCII Scene Export (ASE; ASK is the same text under 3D Studio's name). */
function ase(): Buffer {
  return Buffer.from(
    [
      '*3DSMAX_ASCIIEXPORT 200',
      '*SCENE {',
      ' *SCENE_FIRSTFRAME 0',
      ' *SCENE_LASTFRAME 100',
      ' *SCENE_FRAMESPEED 30',
      ' *SCENE_TICKSPERFRAME 160',
      '}',
      '*GEOMOBJECT {',
      ' *NODE_NAME "tetrahedron"',
      ' *NODE_TM {',
      '  *NODE_NAME "tetrahedron"',
      '  *TM_ROW0 1.0 0.0 0.0',
      '  *TM_ROW1 0.0 1.0 0.0',
      '  *TM_ROW2 0.0 0.0 1.0',
      '  *TM_ROW3 0.0 0.0 0.0',
      ' }',
      ' *MESH {',
      '  *TIMEVALUE 0',
      `  *MESH_NUMVERTEX ${vertices.length}`,
      `  *MESH_NUMFACES ${triangles.length}`,
      '  *MESH_VERTEX_LIST {',
      ...vertices.map((vertex, i) => `   *MESH_VERTEX ${i} ${vertex.map(fixed).join(' ')}`),
      '  }',
      '  *MESH_FACE_LIST {',
      ...triangles.map(([a, b, c], i) => `   *MESH_FACE ${i}: A: ${a} B: ${b} C: ${c} AB: 1 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0`),
      '  }',
      ' }',
      '}',
      '',
    ].join('\n'),
  );
}

/** Caligari trueSpace, ASCII flavour: a 32-byte header line, then chunks (COB an object, SCN a scene). */
function caligari(): Buffer {
  return Buffer.from(
    [
      'Caligari V00.01ALH'.padEnd(31),
      'PolH V0.06 Id 1 Parent 0 Size 00000000',
      'Name tetrahedron',
      'center 0 0 0',
      'x axis 1 0 0',
      'y axis 0 1 0',
      'z axis 0 0 1',
      'Transform',
      '1 0 0 0',
      '0 1 0 0',
      '0 0 1 0',
      '0 0 0 1',
      `World Vertices ${vertices.length}`,
      ...vertices.map((vertex) => vertex.map(fixed).join(' ')),
      'Texture Vertices 1',
      '0 0',
      `Faces ${triangles.length}`,
      ...triangles.flatMap((triangle) => ['Face verts 3 flags 0 mat 0', triangle.map((index) => `<${index},0>`).join(' ')]),
      // No Mat1 chunk: assimp gives face material 0 a default material.
      'END V1.00 Id 0 Parent 0 Size 0',
      '',
    ].join('\n'),
  );
}

/** Sense8's extended NFF: a named object, its vertices, then faces as index lists with a colour. */
function enff(): Buffer {
  return Buffer.from(
    [
      'nff',
      'version 2.0',
      'tetrahedron',
      String(vertices.length),
      ...vertices.map((vertex) => vertex.map(fixed).join(' ')),
      String(triangles.length),
      ...triangles.map((triangle) => `3 ${triangle.join(' ')} 0xff0000 both`),
      '',
    ].join('\n'),
  );
}

/** id Tech 4's MD5 mesh: every vertex hangs from one joint at the origin by one full weight. */
function md5mesh(): Buffer {
  return Buffer.from(
    [
      'MD5Version 10',
      'commandline ""',
      '',
      'numJoints 1',
      'numMeshes 1',
      '',
      'joints {',
      '\t"origin"\t-1 ( 0.000000 0.000000 0.000000 ) ( 0.000000 0.000000 0.000000 )',
      '}',
      '',
      'mesh {',
      '\tshader ""',
      `\tnumverts ${vertices.length}`,
      ...vertices.map((_, i) => `\tvert ${i} ( 0.000000 0.000000 ) ${i} 1`),
      `\tnumtris ${triangles.length}`,
      // MD5 winds clockwise.
      ...triangles.map(([a, b, c], i) => `\ttri ${i} ${a} ${c} ${b}`),
      `\tnumweights ${vertices.length}`,
      ...vertices.map((vertex, i) => `\tweight ${i} 0 1.000000 ( ${vertex.map(fixed).join(' ')} )`),
      '}',
      '',
    ].join('\n'),
  );
}

/** MilkShape 3D 1.4 (version 4), little-endian: vertices, triangles, one group, no materials, joints or animation. */
function ms3d(): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(14);
  header.write('MS3D000000', 0, 'latin1');
  header.writeInt32LE(4, 10);
  parts.push(header, u16(vertices.length));
  for (const vertex of vertices) {
    const record = Buffer.alloc(15);
    record.writeUInt8(0, 0); // flags
    vertex.forEach((value, i) => record.writeFloatLE(value, 1 + i * 4));
    record.writeInt8(-1, 13); // no bone
    record.writeUInt8(0, 14); // reference count
    parts.push(record);
  }
  parts.push(u16(triangles.length));
  for (const triangle of triangles) {
    // flags, three indices, three normals, s, t, smoothing group, group index
    const record = Buffer.alloc(70);
    let at = record.writeUInt16LE(0, 0);
    for (const index of triangle) at = record.writeUInt16LE(index, at);
    for (let i = 0; i < 3; i += 1) for (const value of [0, 0, 1]) at = record.writeFloatLE(value, at);
    for (const value of [0, 1, 0, 0, 0, 1]) at = record.writeFloatLE(value, at);
    at = record.writeUInt8(1, at);
    record.writeUInt8(0, at);
    parts.push(record);
  }
  const group = Buffer.alloc(1 + 32);
  group.write('tetrahedron', 1, 'latin1');
  parts.push(u16(1), group, u16(triangles.length), ...triangles.map((_, i) => u16(i)), Buffer.from([0xff])); // no material
  const animation = Buffer.alloc(12);
  animation.writeFloatLE(30, 0);
  animation.writeFloatLE(0, 4);
  animation.writeInt32LE(1, 8);
  parts.push(u16(0), animation, u16(0)); // no materials, fps/time/frames, no joints
  return Buffer.concat(parts);
}

/** XGL (the 3D XML of Realax / Oasys): positions, one normal, one material, faces that point at them. */
function xgl(): Buffer {
  const faces = triangles.map(
    (triangle) => `<F><MATREF>0</MATREF>${triangle.map((index, corner) => `<FV${corner + 1}><PREF>${index}</PREF><NREF>0</NREF></FV${corner + 1}>`).join('')}</F>`,
  );
  return Buffer.from(
    [
      '<WORLD>',
      '<MESH ID="0">',
      '<MAT ID="0"><AMB>0.2,0.2,0.2</AMB><DIFF>1,1,1</DIFF><SPEC>0,0,0</SPEC><EMISS>0,0,0</EMISS><SHINE>0</SHINE><ALPHA>1</ALPHA></MAT>',
      // A comma followed by a digit is a decimal comma to assimp's number parser: the space keeps them apart.
      ...vertices.map((vertex, i) => `<P ID="${i}">${vertex.join(', ')}</P>`),
      '<N ID="0">0, 0, 1</N>',
      ...faces,
      '</MESH>',
      '<OBJECT><TRANSFORM><FORWARD>0,0,1</FORWARD><UP>0,1,0</UP><POSITION>0,0,0</POSITION></TRANSFORM><MESHREF>0</MESHREF></OBJECT>',
      '</WORLD>',
      '',
    ].join('\n'),
  );
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}

/** Writers by input extension; ZGL is XGL deflated with zlib. */
export const WRITTEN_SAMPLES: Record<string, () => Buffer> = {
  raw,
  ase,
  ask: ase,
  cob: caligari,
  scn: caligari,
  enff,
  md5mesh,
  ms3d,
  xgl,
  zgl: () => deflateSync(xgl()),
};

/** The tetrahedron as OBJ, the seed of the samples assimp's own exporters write (assbin, and the COLLADA inside zae). */
export function tetrahedronObj(): string {
  return ['o tetrahedron', ...vertices.map((vertex) => `v ${vertex.join(' ')}`), ...triangles.map((triangle) => `f ${triangle.map((index) => index + 1).join(' ')}`), ''].join(
    '\n',
  );
}
