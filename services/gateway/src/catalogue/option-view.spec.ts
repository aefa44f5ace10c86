import { create } from '@bufbuild/protobuf';
import { ValueSchema } from '@bufbuild/protobuf/wkt';
import { ConversionOption as OptionView } from '@transmute/api-schema';
import { ConversionOptionSchema, OptionChoiceSchema } from '@transmute/contracts';
import { renderOption } from './option-view';

/** A catalogue option as the converter families announce it, every field set. */
const full = create(ConversionOptionSchema, {
  name: 'crf',
  type: 'range',
  label: 'Quality (CRF)',
  description: 'Lower is better.',
  group: 'Video',
  min: 0n,
  max: 51n,
  step: 1n,
  default: create(ValueSchema, { kind: { case: 'numberValue', value: 23 } }),
  values: [],
  appliesWhen: { rate_control: 'crf' },
});

describe('the REST rendering of a conversion option (spec: ConversionOption)', () => {
  it('renders every field: min, max and step as JSON integers, the default, applies_when', () => {
    const view = renderOption(full);
    expect(view).toEqual({
      name: 'crf',
      type: 'range',
      label: 'Quality (CRF)',
      description: 'Lower is better.',
      group: 'Video',
      min: 0,
      max: 51,
      step: 1,
      default: 23,
      applies_when: { rate_control: 'crf' },
    });
    expect(JSON.stringify(view)).toContain('"min":0,"max":51,"step":1');
    expect(OptionView.safeParse(view).success).toBe(true);
  });

  it("renders values as bare strings without labels and as {value, label} with one, in the catalogue's order", () => {
    const view = renderOption(
      create(ConversionOptionSchema, {
        name: 'preset',
        type: 'select',
        values: [
          create(OptionChoiceSchema, { value: 'fast' }),
          create(OptionChoiceSchema, { value: 'slow', label: 'Slow, smaller' }),
          create(OptionChoiceSchema, { value: 'medium' }),
        ],
        default: create(ValueSchema, { kind: { case: 'stringValue', value: 'medium' } }),
      }),
    );
    expect(view).toEqual({ name: 'preset', type: 'select', values: ['fast', { value: 'slow', label: 'Slow, smaller' }, 'medium'], default: 'medium' });
    expect(OptionView.safeParse(view).success).toBe(true);
  });

  it.each([
    ['a boolean', { case: 'boolValue', value: true } as const, true],
    ['a string', { case: 'stringValue', value: 'keep' } as const, 'keep'],
    ['a number', { case: 'numberValue', value: 90 } as const, 90],
  ])('renders a default that is %s as that JSON type', (_name, kind, expected) => {
    expect(renderOption(create(ConversionOptionSchema, { name: 'x', type: 'checkbox', default: create(ValueSchema, { kind }) })).default).toBe(expected);
  });

  it('leaves out what the option does not have: no empty label, no values, no applies_when, no bounds, no null default', () => {
    const view = renderOption(create(ConversionOptionSchema, { name: 'strip', type: 'checkbox', default: create(ValueSchema, { kind: { case: 'nullValue', value: 0 } }) }));
    expect(view).toEqual({ name: 'strip', type: 'checkbox' });
  });
});
