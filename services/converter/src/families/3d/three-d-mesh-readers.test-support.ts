import { readFile } from 'node:fs/promises';
import { runEngine } from '../../engine/run-engine';

/** What a model holds, read without assimp: its triangles and the corners they use. */
export interface MeshContent {
  triangles: number;
  points: [number, number, number][];
}

type Point = [number, number, number];

const numbers = (text: string) =>
  text
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);
const triples = (values: number[]): Point[] => Array.from({ length: Math.floor(values.length / 3) }, (_, i) => [values[i * 3]!, values[i * 3 + 1]!, values[i * 3 + 2]!]);
/** A polygon of n corners is n - 2 triangles. */
const fan = (corners: number) => Math.max(0, corners - 2);

function obj(text: string): MeshContent {
  const points = [...text.matchAll(/^v\s+(\S+)\s+(\S+)\s+(\S+)/gm)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as Point);
  const triangles = [...text.matchAll(/^f\s+(.+)$/gm)].reduce((sum, m) => sum + fan(m[1]!.trim().split(/\s+/).length), 0);
  return { triangles, points };
}

/** Binary STL: an 80-byte header, a count, then 50 bytes per triangle (normal, three corners, attributes). */
function stl(bytes: Buffer): MeshContent {
  if (bytes.subarray(0, 5).toString('latin1') === 'solid' && bytes.includes('facet')) {
    const text = bytes.toString('latin1');
    const points = [...text.matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as Point);
    return { triangles: (text.match(/endfacet/g) ?? []).length, points };
  }
  const count = bytes.readUInt32LE(80);
  const points: Point[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = 84 + i * 50 + 12;
    for (let corner = 0; corner < 3; corner += 1) points.push([0, 1, 2].map((axis) => bytes.readFloatLE(at + corner * 12 + axis * 4)) as Point);
  }
  return { triangles: count, points };
}

const PLY_SIZES: Record<string, number> = {
  char: 1,
  uchar: 1,
  int8: 1,
  uint8: 1,
  short: 2,
  ushort: 2,
  int16: 2,
  uint16: 2,
  int: 4,
  uint: 4,
  int32: 4,
  uint32: 4,
  float: 4,
  float32: 4,
  double: 8,
  float64: 8,
};

/** PLY, ASCII or little-endian binary: the vertex element's x, y, z and the faces' index lists. */
function ply(bytes: Buffer): MeshContent {
  const end = bytes.indexOf('end_header') + 'end_header'.length + 1;
  const header = bytes.subarray(0, end).toString('latin1');
  const elements: { name: string; count: number; properties: { name: string; type: string; list?: [string, string] }[] }[] = [];
  for (const line of header.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'element') elements.push({ name: words[1]!, count: Number(words[2]), properties: [] });
    if (words[0] === 'property')
      elements.at(-1)!.properties.push(words[1] === 'list' ? { name: words[4]!, type: 'list', list: [words[2]!, words[3]!] } : { name: words[2]!, type: words[1]! });
  }
  const points: Point[] = [];
  let triangles = 0;
  if (header.includes('format ascii')) {
    const rows = bytes.subarray(end).toString('latin1').trim().split('\n');
    let row = 0;
    for (const element of elements)
      for (let i = 0; i < element.count; i += 1, row += 1) {
        const values = numbers(rows[row]!);
        if (element.name === 'vertex') points.push(values.slice(0, 3) as Point);
        if (element.name === 'face') triangles += fan(values[0]!);
      }
    return { triangles, points };
  }
  let at = end;
  const read = (type: string) => {
    const value = ['float', 'float32'].includes(type)
      ? bytes.readFloatLE(at)
      : ['double', 'float64'].includes(type)
        ? bytes.readDoubleLE(at)
        : bytes.readUIntLE(at, PLY_SIZES[type]!);
    at += PLY_SIZES[type]!;
    return value;
  };
  for (const element of elements)
    for (let i = 0; i < element.count; i += 1) {
      const values: Record<string, number> = {};
      for (const property of element.properties) {
        if (property.list) {
          const count = read(property.list[0]);
          for (let k = 0; k < count; k += 1) read(property.list[1]);
          values[property.name] = count;
        } else values[property.name] = read(property.type);
      }
      if (element.name === 'vertex') points.push([values.x!, values.y!, values.z!]);
      if (element.name === 'face') triangles += fan(values.vertex_indices ?? values.vertex_index ?? 0);
    }
  return { triangles, points };
}

/** COLLADA: the positions source's float array, and the triangles' (or polylists') counts. */
function dae(text: string): MeshContent {
  const positions = /<source id="([^"]*position[^"]*)"[^>]*>\s*<float_array[^>]*>([^<]*)<\/float_array>/i.exec(text);
  const triangles = [...text.matchAll(/<triangles[^>]*count="(\d+)"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  const polygons = [...text.matchAll(/<vcount>([^<]*)<\/vcount>/g)].reduce((sum, m) => sum + numbers(m[1]!).reduce((s, n) => s + fan(n), 0), 0);
  return { triangles: triangles + polygons, points: triples(numbers(positions?.[2] ?? '')) };
}

/** X3D: the Coordinate node's points, and the faces of IndexedFaceSet / IndexedTriangleSet. */
function x3d(text: string): MeshContent {
  const points = triples(numbers(/<Coordinate[^>]*point=['"]([^'"]*)['"]/i.exec(text)?.[1] ?? ''));
  const coordIndex = /coordIndex=['"]([^'"]*)['"]/i.exec(text)?.[1];
  if (coordIndex) {
    const faces = coordIndex
      .split('-1')
      .map(numbers)
      .filter((face) => face.length > 0);
    return { triangles: faces.reduce((sum, face) => sum + fan(face.length), 0), points };
  }
  return { triangles: numbers(/\sindex=['"]([^'"]*)['"]/i.exec(text)?.[1] ?? '').length / 3, points };
}

/** DirectX .x (text): the first Mesh block's vertex list, then its face list. */
function directX(text: string): MeshContent {
  // The data block, not the `template Mesh` that declares its layout.
  const body = /(?:^|\n)\s*Mesh(?:\s+[\w-]+)?\s*\{([\s\S]*)/.exec(text)?.[1] ?? '';
  const values = body
    .replace(/\/\/.*$/gm, '')
    .split(/[;,\s]+/)
    .filter(Boolean);
  let at = 0;
  const vertexCount = Number(values[at++]);
  const points: Point[] = [];
  for (let i = 0; i < vertexCount; i += 1, at += 3) points.push([Number(values[at]), Number(values[at + 1]), Number(values[at + 2])]);
  const faceCount = Number(values[at++]);
  let triangles = 0;
  for (let i = 0; i < faceCount; i += 1) {
    const corners = Number(values[at++]);
    triangles += fan(corners);
    at += corners;
  }
  return { triangles, points };
}

/** Binary glTF: the JSON chunk's POSITION accessors carry their min and max, index accessors their counts. */
function glb(bytes: Buffer): MeshContent {
  const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8')) as {
    meshes: { primitives: { attributes: { POSITION: number }; indices?: number }[] }[];
    accessors: { count: number; min?: number[]; max?: number[] }[];
  };
  const points: Point[] = [];
  let triangles = 0;
  for (const primitive of json.meshes.flatMap((mesh) => mesh.primitives)) {
    const position = json.accessors[primitive.attributes.POSITION]!;
    points.push(position.min as Point, position.max as Point);
    triangles += (primitive.indices !== undefined ? json.accessors[primitive.indices]!.count : position.count) / 3;
  }
  return { triangles, points };
}

/** 3MF: the model part's vertex and triangle elements, read out of the zip by bsdtar. */
async function threeMf(path: string, signal: AbortSignal): Promise<MeshContent> {
  const { stdout } = await runEngine({ command: 'bsdtar', args: ['-xOf', path, '3D/*.model'], timeoutMs: 30_000, signal });
  const points = [...stdout.matchAll(/<vertex\s+x="([^"]+)"\s+y="([^"]+)"\s+z="([^"]+)"/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as Point);
  return { triangles: (stdout.match(/<triangle\s/g) ?? []).length, points };
}

/** 3DS chunks: main 4D4D → editor 3D3D → object 4000 (a name) → mesh 4100 → vertices 4110, faces 4120. */
function threeDs(bytes: Buffer): MeshContent {
  const points: Point[] = [];
  let triangles = 0;
  const walk = (from: number, to: number) => {
    for (let at = from; at + 6 <= to;) {
      const id = bytes.readUInt16LE(at);
      const length = bytes.readUInt32LE(at + 2);
      if (length < 6) return;
      if (id === 0x4d4d || id === 0x3d3d || id === 0x4100) walk(at + 6, at + length);
      if (id === 0x4000) walk(bytes.indexOf(0, at + 6) + 1, at + length);
      if (id === 0x4110) {
        const count = bytes.readUInt16LE(at + 6);
        for (let i = 0; i < count; i += 1) points.push([0, 1, 2].map((axis) => bytes.readFloatLE(at + 8 + i * 12 + axis * 4)) as Point);
      }
      if (id === 0x4120) triangles += bytes.readUInt16LE(at + 6);
      at += length;
    }
  };
  walk(0, bytes.length);
  return { triangles, points };
}

/** STEP (ISO 10303-21): the points that are vertices, and the faces. */
function step(text: string): MeshContent {
  const byId = new Map([...text.matchAll(/#(\d+)=CARTESIAN_POINT\('[^']*',\(([^)]*)\)\)/g)].map((m) => [m[1]!, numbers(m[2]!) as Point]));
  const points = [...text.matchAll(/VERTEX_POINT\('[^']*',#(\d+)\)/g)].map((m) => byId.get(m[1]!)!).filter(Boolean);
  return { triangles: (text.match(/=(?:FACE_SURFACE|ADVANCED_FACE)\(/g) ?? []).length, points };
}

/** Reads an output of the 3d family with a parser of its own format, not with assimp. */
export async function readMeshContent(path: string, format: string, signal: AbortSignal): Promise<MeshContent> {
  const bytes = await readFile(path);
  switch (format) {
    case 'obj':
      return obj(bytes.toString('latin1'));
    case 'stl':
      return stl(bytes);
    case 'ply':
      return ply(bytes);
    case 'dae':
      return dae(bytes.toString('utf8'));
    case 'x3d':
      return x3d(bytes.toString('utf8'));
    case 'x':
      return directX(bytes.toString('latin1'));
    case 'glb':
      return glb(bytes);
    case '3mf':
      return threeMf(path, signal);
    case '3ds':
      return threeDs(bytes);
    case 'stp':
      return step(bytes.toString('latin1'));
    default:
      throw new Error(`no reader of ${format} models`);
  }
}

/** The corners' bounding box, rounded to a thousandth. */
export function boundingBox(points: readonly Point[]): { min: Point; max: Point } {
  const round = (value: number) => Math.round(value * 1000) / 1000 + 0;
  const axis = (i: number, pick: (...values: number[]) => number) => round(pick(...points.map((point) => point[i]!)));
  return { min: [axis(0, Math.min), axis(1, Math.min), axis(2, Math.min)], max: [axis(0, Math.max), axis(1, Math.max), axis(2, Math.max)] };
}
