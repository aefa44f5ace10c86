import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { NarrowedOption, WithdrawnPair } from '../../matrix/family-proof';
import { type ContentCheck, type Finding, Findings } from '../../matrix/fidelity/findings';
import type { OptionCheck } from '../../matrix/fidelity/option-checks';
import { toolsPython } from '../../matrix/fidelity/tools-python';
import { THREE_D_UNSUPPORTED_PAIRS } from './three-d-formats';
import { JOIN_HAS_NO_EFFECT } from './three-d-options';

/** What a reader finds in a model: unique corner positions, triangles, surface area and bounding box. */
export interface MeshFacts {
  reader: string;
  vertices: number;
  triangles: number;
  area: number;
  min: [number, number, number];
  max: [number, number, number];
}

const TIMEOUT_MS = 60_000;
/** Formats trimesh reads: an importer that is not assimp's. */
const TRIMESH_FORMATS = new Set(['obj', 'stl', 'ply', 'glb', 'gltf', 'off', '3mf']);

const TRIMESH_READER = `
import json, sys
import numpy, trimesh
scene = trimesh.load(sys.argv[1], file_type=sys.argv[2], force='scene', process=False)
mesh = scene.to_geometry() if hasattr(scene, 'to_geometry') else scene.dump(concatenate=True)
unique = numpy.unique(numpy.round(mesh.vertices, 4), axis=0)
print(json.dumps({'vertices': int(len(unique)), 'triangles': int(len(mesh.faces)), 'area': float(mesh.area), 'min': mesh.bounds[0].tolist(), 'max': mesh.bounds[1].tolist()}))
`;

/** Reads a model: trimesh where it reads the format, otherwise assimp writes it as ASCII PLY and that text is measured. */
export async function readMesh(path: string, format: string, dir: string, signal: AbortSignal): Promise<MeshFacts> {
  if (format === 'stp') return readStep(await readFile(path, 'utf8'));
  let refused = '';
  if (TRIMESH_FORMATS.has(format)) {
    const script = join(dir, 'read-mesh.py');
    await writeFile(script, TRIMESH_READER);
    try {
      const { stdout } = await runEngine({ command: await toolsPython(), args: [script, path, format], timeoutMs: TIMEOUT_MS, signal, memoryLimitMb: 0 });
      return { reader: 'trimesh', ...(JSON.parse(stdout) as Omit<MeshFacts, 'reader'>) };
    } catch (error) {
      // trimesh gives up on some valid files (a material naming a texture that is not there): assimp reads those.
      refused = `; trimesh could not: ${(error as Error).message.split('|').pop()?.trim().slice(0, 120)}`;
    }
  }
  const ply = join(dir, `read-${Math.random().toString(36).slice(2)}.ply`);
  await runEngine({ command: 'assimp', args: ['export', path, ply, '-fply', '-tri'], timeoutMs: TIMEOUT_MS, signal });
  return { ...measurePly(await readFile(ply, 'latin1')), reader: `assimp (${refused ? 'fallback' : 'no other reader of this format here'}), measured as PLY${refused}` };
}

/** Measures an ASCII PLY: vertex positions (first three properties) and faces fanned into triangles. */
export function measurePly(text: string): Omit<MeshFacts, 'reader'> {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => line.trim() === 'end_header');
  const vertexCount = Number(/element vertex (\d+)/.exec(text)?.[1] ?? 0);
  const faceCount = Number(/element face (\d+)/.exec(text)?.[1] ?? 0);
  const points = lines.slice(end + 1, end + 1 + vertexCount).map((line) => line.trim().split(/\s+/).slice(0, 3).map(Number) as [number, number, number]);
  const triangles: [number, number, number][] = [];
  for (const line of lines.slice(end + 1 + vertexCount, end + 1 + vertexCount + faceCount)) {
    const [count, ...indices] = line.trim().split(/\s+/).map(Number);
    for (let i = 1; i + 1 < (count ?? 0); i += 1) triangles.push([indices[0]!, indices[i]!, indices[i + 1]!]);
  }
  return measure(points, triangles);
}

/** A STEP file's vertex points (VERTEX_POINT → CARTESIAN_POINT) and face bounds: read from its text (ISO 10303-21). */
export function readStep(text: string): MeshFacts {
  const byId = new Map(
    [...text.matchAll(/#(\d+)=CARTESIAN_POINT\('[^']*',\(([^)]*)\)\)/g)].map((match) => [match[1]!, match[2]!.split(',').map(Number) as [number, number, number]]),
  );
  const vertexIds = [...text.matchAll(/VERTEX_POINT\('[^']*',#(\d+)\)/g)].map((match) => match[1]!);
  // Points that are vertices; without VERTEX_POINTs, every point but the placements' origins.
  const placed = new Set([...text.matchAll(/AXIS2_PLACEMENT_3D\('[^']*',#(\d+)/g)].map((match) => match[1]!));
  const points = vertexIds.length > 0 ? vertexIds.map((id) => byId.get(id)!).filter(Boolean) : [...byId].filter(([id]) => !placed.has(id)).map(([, point]) => point);
  const faces = (text.match(/FACE_OUTER_BOUND|FACE_BOUND/g) ?? []).length;
  const facts = measure(points, []);
  return { ...facts, triangles: faces, area: Number.NaN, reader: 'the STEP text (CARTESIAN_POINT entities)' };
}

function measure(points: [number, number, number][], triangles: [number, number, number][]): Omit<MeshFacts, 'reader'> {
  const unique = new Set(points.map((point) => point.map((value) => value.toFixed(4)).join(',')));
  let area = 0;
  for (const [a, b, c] of triangles) {
    const [p, q, r] = [points[a]!, points[b]!, points[c]!];
    const u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
    const v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
    const cross = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    area += Math.hypot(cross[0]!, cross[1]!, cross[2]!) / 2;
  }
  const axis = (i: number, pick: (...values: number[]) => number) => (points.length > 0 ? pick(...points.map((point) => point[i]!)) : Number.NaN);
  return {
    vertices: unique.size,
    triangles: triangles.length,
    area,
    min: [axis(0, Math.min), axis(1, Math.min), axis(2, Math.min)],
    max: [axis(0, Math.max), axis(1, Math.max), axis(2, Math.max)],
  };
}

const box = (facts: MeshFacts) => `${facts.min.map((v) => v.toFixed(3)).join(' ')} to ${facts.max.map((v) => v.toFixed(3)).join(' ')}`;

/**
 * Same corners, triangles, area and bounding box (within 0.1% of the model's
 * size). A target whose axes differ (3DS is Z-up) and that declares it is
 * held to the box's extents in any order instead of its position.
 */
export function compareMeshes(source: MeshFacts, output: MeshFacts, format: string, note?: string): Finding[] {
  const findings = new Findings();
  findings.expect('reader', true, `source read by ${source.reader}, output by ${output.reader}`);
  const size = Math.max(...source.max.map((value, i) => value - source.min[i]!), 1e-9);
  if (note?.includes('turned')) {
    const extents = (facts: MeshFacts) => facts.max.map((value, i) => value - facts.min[i]!).sort((a, b) => a - b);
    const [a, b] = [extents(source), extents(output)];
    findings.expect(
      'bounding box',
      a.every((value, i) => Math.abs(value - b[i]!) <= size * 1e-3),
      `extents ${a.map((v) => v.toFixed(3)).join(' x ')} and ${b.map((v) => v.toFixed(3)).join(' x ')} (declared: ${note}); boxes ${box(source)} and ${box(output)}`,
    );
  } else {
    const off = [...source.min.map((value, i) => Math.abs(value - output.min[i]!)), ...source.max.map((value, i) => Math.abs(value - output.max[i]!))];
    findings.expect(
      'bounding box',
      off.every((value) => value <= size * 1e-3),
      `source ${box(source)}, output ${box(output)}`,
    );
  }
  if (format === 'stp') {
    // STEP keeps corner points and faces, not triangles.
    findings.expect('corners', output.vertices >= source.vertices, `source ${source.vertices} corners, STEP ${output.vertices} points`);
    return findings.list;
  }
  findings.expect('vertices', output.vertices === source.vertices, `source ${source.vertices} distinct corners, output ${output.vertices}`);
  findings.expect('faces', output.triangles === source.triangles, `source ${source.triangles} triangles, output ${output.triangles}`);
  findings.expect('surface area', Math.abs(output.area - source.area) <= source.area * 0.01, `source ${source.area.toFixed(4)}, output ${output.area.toFixed(4)}`);
  return findings.list;
}

/** The 3d family's content check: source and output measured (trimesh where it reads them) and compared. */
export function threeDContentCheck(): ContentCheck {
  const sources = new Map<string, Promise<MeshFacts>>();
  return async (pair, sourcePath, outputPath, signal) => {
    const scratch = await mkdtemp(join(dirname(outputPath), 'fidelity-'));
    try {
      let source = sources.get(sourcePath);
      if (!source) {
        source = readMesh(sourcePath, pair.inputFormat, dirname(sourcePath), signal);
        sources.set(sourcePath, source);
      }
      return compareMeshes(await source, await readMesh(outputPath, pair.outputFormat, scratch, signal), pair.outputFormat, pair.note);
    } catch (error) {
      return [{ check: 'read', passed: false, detail: (error as Error).message.replace(/\s+/g, ' ').slice(0, 300) }];
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}

/** Pairs left out of the 3d family, and why (three-d-formats.ts). */
export const THREE_D_WITHDRAWN: WithdrawnPair[] = [...THREE_D_UNSUPPORTED_PAIRS].map((key) => {
  const [inputFormat, outputFormat] = key.split('->') as [string, string];
  return { inputFormat, outputFormat, reason: 'assimp drops or breaks the mesh (the matrix found no faces, or assimp fails)' };
});

/** Options taken off some outputs because the option checks measured no effect there. */
export const THREE_D_NARROWED: NarrowedOption[] = Object.entries(JOIN_HAS_NO_EFFECT).map(([output, reason]) => ({ option: 'join_vertices', where: `${output} outputs`, reason }));

export const THREE_D_OPTION_CHECKS: OptionCheck[] = [
  {
    option: 'encoding',
    promise: 'ascii writes text, binary does not; the model is the same',
    inputs: ['obj'],
    runs: [{ encoding: 'binary' }, { encoding: 'ascii' }],
    async verify(run) {
      const findings = new Findings();
      const text = (bytes: Buffer) => /^(solid|ply\r?\nformat ascii)/.test(bytes.subarray(0, 40).toString('latin1'));
      const [binary, ascii] = [await readFile(run.first), await readFile(run.second)];
      findings.expect(
        'encoding',
        !text(binary) && text(ascii),
        `binary starts ${JSON.stringify(binary.subarray(0, 12).toString('latin1'))}; ascii starts ${JSON.stringify(ascii.subarray(0, 12).toString('latin1'))}`,
      );
      const [a, b] = [await readMesh(run.first, run.pair.outputFormat, run.scratch, run.signal), await readMesh(run.second, run.pair.outputFormat, run.scratch, run.signal)];
      for (const finding of compareMeshes(a, b, run.pair.outputFormat)) if (finding.check !== 'reader') findings.expect(`same ${finding.check}`, finding.passed, finding.detail);
      return findings.list;
    },
  },
  {
    option: 'join_vertices',
    promise: 'joining makes fewer stored vertices for the same model',
    inputs: ['stl'],
    runs: [{ join_vertices: false }, { join_vertices: true }],
    async verify(run) {
      const findings = new Findings();
      const stored = (path: string) => storedVertices(path, run.pair.outputFormat, run.signal);
      const [separate, joined] = [await stored(run.first), await stored(run.second)];
      findings.expect('fewer vertices', joined < separate, `stored vertices without joining: ${separate}; joined: ${joined} (counted in the file)`);
      return findings.list;
    },
  },
];

/**
 * The vertices a file stores, counted in the file itself (a reader would
 * merge them): PLY's element count, OBJ's v lines, glTF's POSITION accessors,
 * COLLADA's position array, DirectX's mesh header, X3D's coordinates, 3MF's
 * vertex elements, 3DS's vertex list chunk, STEP's VERTEX_POINTs, STL's
 * corners (three per triangle: it cannot share them).
 */
export async function storedVertices(path: string, format: string, signal: AbortSignal): Promise<number> {
  const bytes = await readFile(path);
  const text = bytes.toString('latin1');
  switch (format) {
    case 'ply':
      return Number(/element vertex (\d+)/.exec(text)?.[1] ?? 0);
    case 'obj':
      return (text.match(/^v\s/gm) ?? []).length;
    case 'stl':
      return /^solid/.test(text) ? (text.match(/\bvertex\b/g) ?? []).length : bytes.readUInt32LE(80) * 3;
    case 'glb': {
      const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8')) as {
        meshes?: { primitives?: { attributes?: { POSITION?: number } }[] }[];
        accessors?: { count: number }[];
      };
      return (json.meshes ?? []).flatMap((mesh) => mesh.primitives ?? []).reduce((sum, primitive) => sum + (json.accessors?.[primitive.attributes?.POSITION ?? -1]?.count ?? 0), 0);
    }
    case 'dae':
      return Number(/<float_array[^>]*position[^>]*count="(\d+)"/i.exec(text)?.[1] ?? 0) / 3;
    case 'x':
      return Number(/Mesh\s*\w*\s*\{\s*(\d+);/.exec(text)?.[1] ?? 0);
    case 'x3d':
      return (
        (/<Coordinate[^>]*point=["']([^"']*)["']/
          .exec(text)?.[1]
          ?.trim()
          .split(/[\s,]+/).length ?? 0) / 3
      );
    case '3mf': {
      // The model part's name varies in case (3D/3DModel.model); any .model part holds the mesh.
      const { stdout } = await runEngine({ command: 'bsdtar', args: ['-xOf', path, '--include', '*.model'], timeoutMs: TIMEOUT_MS, signal });
      return (stdout.match(/<vertex\b/g) ?? []).length;
    }
    case '3ds': {
      // Chunk 0x4110 (vertex list): id, 32-bit length, then a 16-bit count.
      let total = 0;
      for (let i = bytes.indexOf(Buffer.from([0x10, 0x41])); i >= 0 && i + 8 <= bytes.length; i = bytes.indexOf(Buffer.from([0x10, 0x41]), i + 2)) {
        const count = bytes.readUInt16LE(i + 6);
        if (bytes.readUInt32LE(i + 2) === 8 + count * 12) total += count;
      }
      return total;
    }
    case 'stp':
      return (text.match(/VERTEX_POINT\(/g) ?? []).length;
    default:
      throw new Error(`no vertex count for ${format}`);
  }
}
