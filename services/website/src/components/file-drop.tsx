import { useState } from 'preact/hooks';

/** Step 1: files dropped or chosen, or a file's web address. */
export function FileDrop(props: { onFiles: (files: FileList | null) => void; onUrl: (url: string) => boolean }) {
  const [dragging, setDragging] = useState(false);
  const [url, setUrl] = useState('');
  const addUrl = (event: Event) => {
    event.preventDefault();
    if (props.onUrl(url.trim())) setUrl('');
  };
  return (
    <fieldset class="step">
      <legend>1. Choose files</legend>
      <div
        class={`drop${dragging ? ' over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          props.onFiles(event.dataTransfer?.files ?? null);
        }}
      >
        <label for="file-input">Drop files here or choose them</label>
        <input
          id="file-input"
          type="file"
          multiple
          onChange={(event) => {
            props.onFiles(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
      </div>
      <div class="url-row">
        <label for="url-input">Or a file's web address</label>
        <div class="inline">
          <input id="url-input" type="url" inputMode="url" placeholder="https://example.com/report.docx" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
          <button type="button" onClick={addUrl} disabled={!url.trim()}>
            Add address
          </button>
        </div>
      </div>
    </fieldset>
  );
}
