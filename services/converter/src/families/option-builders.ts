import { create } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { type ConversionOption, ConversionOptionSchema } from '@transmute/contracts';

/** Small constructors for the spec's ConversionOption, shared by every family so option tables read as data. */
export const numberValue = (value: number) => create(ValueSchema, { kind: { case: 'numberValue', value } });
export const textValue = (value: string) => create(ValueSchema, { kind: { case: 'stringValue', value } });
export const boolValue = (value: boolean) => create(ValueSchema, { kind: { case: 'boolValue', value } });

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

export function checkboxOption(spec: Common & { default: boolean }): ConversionOption {
  return create(ConversionOptionSchema, {
    name: spec.name,
    type: 'checkbox',
    label: spec.label,
    description: spec.description,
    group: spec.group,
    default: boolValue(spec.default),
    appliesWhen: spec.appliesWhen ?? {},
  });
}

/** An integer option value within bounds (numbers or numeric strings); anything else is absent. */
export function integerIn(value: unknown, min: number, max: number): number | undefined {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/** A checkbox value (true/false or their strings); anything else is the default. */
export function booleanOr(value: unknown, fallback: boolean): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fallback;
}

/** One of the allowed values, or the default. */
export function choiceOr<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((candidate) => candidate === value) ?? fallback;
}

/** One of the allowed values (compared as text, so 44100 and '44100' both match), or undefined. */
export function choiceIn<T extends string | number>(value: unknown, allowed: readonly T[]): T | undefined {
  // Only text and numbers can name a choice; an object never matches one.
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return allowed.find((candidate) => String(candidate) === String(value));
}
