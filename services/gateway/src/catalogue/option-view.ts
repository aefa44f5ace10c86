import type { ConversionOption as OptionView } from '@transmute/api-schema';
import type { ConversionOption } from '@transmute/contracts';

/** Spec "ConversionOption": fields the option has, numbers as numbers, bare strings for unlabelled values. */
export function renderOption(option: ConversionOption): OptionView {
  const view: OptionView = { name: option.name, type: option.type };
  if (option.label) view.label = option.label;
  if (option.description) view.description = option.description;
  if (option.group) view.group = option.group;
  if (option.min !== undefined) view.min = Number(option.min);
  if (option.max !== undefined) view.max = Number(option.max);
  if (option.step !== undefined) view.step = Number(option.step);
  const fallback = option.default?.kind;
  if (fallback && (fallback.case === 'stringValue' || fallback.case === 'numberValue' || fallback.case === 'boolValue')) view.default = fallback.value;
  if (option.values.length > 0) view.values = option.values.map(({ value, label }) => (label ? { value, label } : value));
  if (Object.keys(option.appliesWhen).length > 0) view.applies_when = { ...option.appliesWhen };
  return view;
}
