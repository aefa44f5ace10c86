import { formatBytes } from '../api';
import { type FileRow, STATUS_TEXT } from '../convert/file-row';

/** Every file on the page: its status, progress or problem, and its download links once converted. */
export function FileTable(props: { rows: FileRow[]; onRemove: (id: number) => void }) {
  if (props.rows.length === 0) return null;
  return (
    <div class="table-wrap" role="region" aria-label="Files" tabIndex={0}>
      <table>
        <caption class="visually-hidden">Files to convert</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Status</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.id} data-testid="file-row" data-status={row.status}>
              <td>
                {row.name}
                {row.file && <span class="hint"> · {formatBytes(row.file.size)}</span>}
              </td>
              <td aria-live="polite">
                {STATUS_TEXT[row.status]}
                {row.status === 'processing' && row.progress !== undefined && <progress max={100} value={row.progress} aria-label={`${row.name} progress`} />}
                {row.problem && <p class="error">{row.problem}</p>}
              </td>
              <td>
                {row.downloads.map((download) => (
                  <a key={download.url} href={download.url} download={download.filename} data-testid="download">
                    Download {download.filename}
                  </a>
                ))}
                {row.status === 'ready' && (
                  <button type="button" class="link" onClick={() => props.onRemove(row.id)}>
                    Remove<span class="visually-hidden"> {row.name}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
