export interface ConversionOption {
  name: string;
  type: string;
  label?: string;
  description?: string;
  group?: string;
  min?: number;
  max?: number;
  step?: number;
  default?: string | number | boolean;
  values?: (string | { value: string; label: string })[];
  applies_when?: Record<string, string>;
}

export type OptionValues = Record<string, string | number | boolean>;

const choice = (value: string | { value: string; label: string }) => (typeof value === 'string' ? { value, label: value } : value);

/** The value an option has now: what the person chose, else its default. */
export function currentValue(option: ConversionOption, values: OptionValues): string | number | boolean | undefined {
  return option.name in values ? values[option.name] : option.default;
}

/** applies_when: shown (and sent) only while every named option has the named value. */
export function applies(option: ConversionOption, options: ConversionOption[], values: OptionValues): boolean {
  return Object.entries(option.applies_when ?? {}).every(([name, wanted]) => {
    const other = options.find((candidate) => candidate.name === name);
    const value = other ? currentValue(other, values) : values[name];
    return value !== undefined && String(value) === wanted;
  });
}

/** What a convert task gets: the options the person changed that apply. */
export function chosenOptions(options: ConversionOption[], values: OptionValues): OptionValues {
  const chosen: OptionValues = {};
  for (const option of options) {
    const value = values[option.name];
    if (value === undefined || value === option.default || !applies(option, options, values)) continue;
    chosen[option.name] = value;
  }
  return chosen;
}

function Field(props: { option: ConversionOption; value: string | number | boolean | undefined; onChange: (value: string | number | boolean) => void }) {
  const { option, value } = props;
  const id = `option-${option.name}`;
  const label = option.label || option.name;
  const describedBy = option.description ? `${id}-help` : undefined;
  const help = option.description && (
    <span id={`${id}-help`} class="hint">
      {option.description}
      {option.default !== undefined && ` (default: ${String(option.default)})`}
    </span>
  );
  switch (option.type) {
    case 'checkbox':
      return (
        <div class="field check">
          <input
            id={id}
            type="checkbox"
            checked={value === true || value === 'true'}
            onChange={(event) => props.onChange(event.currentTarget.checked)}
            aria-describedby={describedBy}
          />
          <label for={id}>{label}</label>
          {help}
        </div>
      );
    case 'select':
      return (
        <div class="field">
          <label for={id}>{label}</label>
          <select id={id} value={value === undefined ? '' : String(value)} onChange={(event) => props.onChange(event.currentTarget.value)} aria-describedby={describedBy}>
            {value === undefined && <option value="">(engine default)</option>}
            {(option.values ?? []).map(choice).map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
          {help}
        </div>
      );
    case 'radio':
      return (
        <fieldset class="field">
          <legend>{label}</legend>
          {(option.values ?? []).map(choice).map((entry) => (
            <label key={entry.value} class="radio">
              <input type="radio" name={id} value={entry.value} checked={String(value) === entry.value} onChange={() => props.onChange(entry.value)} />
              {entry.label}
            </label>
          ))}
          {help}
        </fieldset>
      );
    case 'range':
    case 'number': {
      const range = option.type === 'range';
      return (
        <div class="field">
          <label for={id}>
            {label}
            {range && value !== undefined && <output for={id}> {String(value)}</output>}
          </label>
          <input
            id={id}
            type={range ? 'range' : 'number'}
            min={option.min}
            max={option.max}
            step={option.step ?? 1}
            value={value === undefined ? '' : String(value)}
            onInput={(event) => {
              const text = event.currentTarget.value;
              if (text !== '') props.onChange(Number(text));
            }}
            aria-describedby={describedBy}
          />
          {help}
        </div>
      );
    }
    default:
      return (
        <div class="field">
          <label for={id}>{label}</label>
          <input
            id={id}
            type="text"
            value={value === undefined ? '' : String(value)}
            onInput={(event) => props.onChange(event.currentTarget.value)}
            aria-describedby={describedBy}
          />
          {help}
        </div>
      );
  }
}

/** Options of `/v1/options` for the chosen pair, by type, defaults shown, grouped by their `group`. */
export function OptionsForm(props: { options: ConversionOption[]; values: OptionValues; onChange: (values: OptionValues) => void }) {
  const visible = props.options.filter((option) => applies(option, props.options, props.values));
  if (props.options.length === 0) return <p class="hint">This conversion has no options.</p>;
  const groups = new Map<string, ConversionOption[]>();
  for (const option of visible) groups.set(option.group || 'Options', [...(groups.get(option.group || 'Options') ?? []), option]);
  return (
    <div class="options">
      {[...groups].map(([group, options]) => (
        <fieldset key={group} class="group">
          <legend>{group}</legend>
          {options.map((option) => (
            <Field key={option.name} option={option} value={currentValue(option, props.values)} onChange={(value) => props.onChange({ ...props.values, [option.name]: value })} />
          ))}
        </fieldset>
      ))}
    </div>
  );
}
