import { create } from '@bufbuild/protobuf';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';
import { booleanOr, boolValue, textValue } from '../option-builders';
import { ENCODINGS, THREE_D_EXPORTERS } from './three-d-formats';

/**
 * Outputs where join_vertices does nothing it promises, as the option check
 * measured (stored vertices counted in the file), and why it is not offered there.
 */
export const JOIN_HAS_NO_EFFECT: Record<string, string> = {
  stl: 'STL cannot share vertices, and assimp crashes (SIGSEGV) joining them for STL',
  obj: "assimp's OBJ writer stores each position once already",
  glb: 'the glTF writer already shares vertices; joining stored more, not fewer (36 against 24)',
  '3ds': 'the 3DS writer already shares vertices; joining stored more, not fewer (36 against 24)',
};

export function threeDOptions(outputFormat: string): ConversionOption[] {
  const options: ConversionOption[] = [];
  if (THREE_D_EXPORTERS[outputFormat]?.binary) {
    options.push(
      create(ConversionOptionSchema, {
        name: 'encoding',
        type: 'select',
        label: 'Encoding',
        description: 'Binary files are smaller; ASCII ones can be read and edited as text.',
        group: 'output',
        values: ENCODINGS.map((value) => ({ value, label: value })),
        default: textValue('binary'),
      }),
    );
  }
  if (JOIN_HAS_NO_EFFECT[outputFormat]) return options;
  options.push(
    create(ConversionOptionSchema, {
      name: 'join_vertices',
      type: 'checkbox',
      label: 'Join identical vertices',
      description: 'Merge vertices shared by several faces into one, for a smaller, indexed mesh.',
      group: 'mesh',
      default: boolValue(false),
    }),
  );
  return options;
}

export interface ThreeDSettings {
  binary: boolean;
  joinVertices: boolean;
}

export function threeDSettings(options: Readonly<Record<string, unknown>>): ThreeDSettings {
  return {
    binary: options['encoding'] !== 'ascii',
    joinVertices: booleanOr(options['join_vertices'], false),
  };
}

/** `assimp export` arguments: post-processing flags first, the exporter chosen explicitly. */
export function assimpExportArgs(input: string, output: string, outputFormat: string, settings: ThreeDSettings): string[] {
  const exporter = THREE_D_EXPORTERS[outputFormat]!;
  const id = settings.binary && exporter.binary ? exporter.binary : exporter.text;
  // 3MF holds triangles only, and assimp's writer keeps one triangle of each quad unless the mesh is triangulated first.
  const triangulate = outputFormat === '3mf' ? ['-tri'] : [];
  return ['export', input, output, `-f${id}`, ...triangulate, ...(settings.joinVertices ? ['-jiv'] : [])];
}
