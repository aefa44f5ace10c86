import type { ComponentChildren } from 'preact';

/**
 * A dashboard list: a hint when it is empty, otherwise a table in a
 * scrollable, keyboard-reachable region (narrow screens scroll it sideways).
 * A column named '' is the actions column; screen readers hear "Actions".
 */
export function DataTable<Row>(props: { label: string; rows: Row[] | null; empty: string; columns: string[]; row: (item: Row) => ComponentChildren }) {
  const { label, rows, empty, columns, row } = props;
  if (!rows) return null;
  if (rows.length === 0) return <p class="hint">{empty}</p>;
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column || <span class="visually-hidden">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.map(row)}</tbody>
      </table>
    </div>
  );
}
