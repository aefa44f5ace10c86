import { useState } from 'preact/hooks';

/** Target formats grouped by the converter family that produces them, with a search box filtering the list. */
export function FormatPicker(props: { families: Record<string, string>; value: string; onChange: (format: string) => void; disabled?: boolean }) {
  const [query, setQuery] = useState('');
  const groups = new Map<string, string[]>();
  for (const [format, family] of Object.entries(props.families).sort(([a], [b]) => a.localeCompare(b))) {
    if (query && !format.includes(query.trim().toLowerCase()) && !family.includes(query.trim().toLowerCase())) continue;
    groups.set(family, [...(groups.get(family) ?? []), format]);
  }
  const count = [...groups.values()].reduce((sum, formats) => sum + formats.length, 0);
  return (
    <div class="picker">
      <label for="format-search">Search target formats</label>
      <input
        id="format-search"
        type="search"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
        placeholder="e.g. pdf, jpg, image"
        disabled={props.disabled}
        aria-controls="target-format"
      />
      <label for="target-format">Target format</label>
      <select
        id="target-format"
        size={8}
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        aria-describedby="format-count"
      >
        {[...groups]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([family, formats]) => (
            <optgroup key={family} label={family}>
              {formats.map((format) => (
                <option key={format} value={format}>
                  {format.toUpperCase()}
                </option>
              ))}
            </optgroup>
          ))}
      </select>
      <p id="format-count" class="hint" aria-live="polite">
        {count} format{count === 1 ? '' : 's'} shown
      </p>
    </div>
  );
}
