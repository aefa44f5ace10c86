import { create } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';
import { ENCODINGS, THREE_D_EXPORTERS } from './three-d-formats';

const text = (value: string) => create(ValueSchema, { kind: { case: 'stringValue', value } });
const bool = (value: boolean) => create(ValueSchema, { kind: { case: 'boolValue', value } });

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
        default: text('binary'),
      }),
    );
  }
  options.push(
    create(ConversionOptionSchema, {
      name: 'join_vertices',
      type: 'checkbox',
      label: 'Join identical vertices',
      description: 'Merge vertices shared by several faces into one, for a smaller, indexed mesh.',
      group: 'mesh',
      default: bool(false),
    }),
  );
  return options;
}

export interface ThreeDSettings {
  binary: boolean;
  joinVertices: boolean;
}

export function threeDSettings(options: Readonly<Record<string, unknown>>): ThreeDSettings {
  const join = options['join_vertices'];
  return {
    binary: options['encoding'] !== 'ascii',
    joinVertices: join === true || join === 'true',
  };
}

/** `assimp export` arguments: post-processing flags first, the exporter chosen explicitly. */
export function assimpExportArgs(input: string, output: string, outputFormat: string, settings: ThreeDSettings): string[] {
  const exporter = THREE_D_EXPORTERS[outputFormat]!;
  const id = settings.binary && exporter.binary ? exporter.binary : exporter.text;
  return ['export', input, output, `-f${id}`, ...(settings.joinVertices ? ['-jiv'] : [])];
}
