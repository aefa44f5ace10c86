import { create } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';

/** Small constructors for the spec's ConversionOption, so the media option tables read as data. */
const numberValue = (value: number) => create(ValueSchema, { kind: { case: 'numberValue', value } });
const textValue = (value: string) => create(ValueSchema, { kind: { case: 'stringValue', value } });

interface Common {
  name: string;
  label: string;
  description: string;
  group: string;
  appliesWhen?: Record<string, string>;
}

export function numberOption(spec: Common & { min: number; max: number; step?: number; default?: number; type?: 'number' | 'range' }): ConversionOption {
  return create(ConversionOptionSchema, {
    name: spec.name,
    type: spec.type ?? 'number',
    label: spec.label,
    description: spec.description,
    group: spec.group,
    min: BigInt(spec.min),
    max: BigInt(spec.max),
    step: spec.step === undefined ? undefined : BigInt(spec.step),
    default: spec.default === undefined ? undefined : numberValue(spec.default),
    appliesWhen: spec.appliesWhen ?? {},
  });
}

export function selectOption(spec: Common & { values: readonly (readonly [string, string])[]; default?: string }): ConversionOption {
  return create(ConversionOptionSchema, {
    name: spec.name,
    type: 'select',
    label: spec.label,
    description: spec.description,
    group: spec.group,
    values: spec.values.map(([value, label]) => ({ value, label })),
    default: spec.default === undefined ? undefined : textValue(spec.default),
    appliesWhen: spec.appliesWhen ?? {},
  });
}

/** An integer option value within bounds (numbers or numeric strings); anything else is absent. */
export function integerIn(value: unknown, min: number, max: number): number | undefined {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/** One of the allowed values (compared as text, so 44100 and '44100' both match), or undefined. */
export function choiceIn<T extends string | number>(value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  return allowed.find((candidate) => String(candidate) === String(value));
}
