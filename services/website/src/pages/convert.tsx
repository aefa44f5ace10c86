import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, formatBytes, type JobView, type Person, sendToUploadForm, uploadRefusal, type Usage } from '../api';
import { FormatPicker } from '../components/format-picker';
import { type ConversionOption, chosenOptions, type OptionValues, OptionsForm } from '../components/options-form';
import { followJob } from '../job-events';
import { onLinkClick } from '../router';

interface Row {
  id: number;
  name: string;
  inputFormat: string;
  file?: File;
  url?: string;
  status: 'ready' | 'uploading' | 'waiting' | 'processing' | 'finished' | 'failed';
  progress?: number;
  downloads: { url: string; filename: string }[];
  problem?: string;
}

const extensionOf = (name: string): string => {
  const match = /\.([A-Za-z0-9]{1,16})$/.exec(name.split(/[?#]/)[0] ?? '');
  return match ? (match[1] as string).toLowerCase() : '';
};

const STATUS_TEXT: Record<Row['status'], string> = {
  ready: 'Ready',
  uploading: 'Uploading…',
  waiting: 'Waiting…',
  processing: 'Converting…',
  finished: 'Done',
  failed: 'Failed',
};

/** A failure in plain words: what happened and, where there is one, what to do. */
function explain(error: unknown): { text: string; quota: boolean } {
  if (error instanceof ApiError) {
    if (error.status === 402) return { text: `Quota reached: ${error.message}.`, quota: true };
    if (error.status === 413) return { text: `Too big: ${error.message}.`, quota: false };
    if (error.status === 429) return { text: `Too many requests: try again in ${error.retryAfter ?? 60} s.`, quota: false };
    if (error.status === 422 && /catalogue|convert|support|pair/i.test(error.message)) return { text: `This conversion is not supported: ${error.message}.`, quota: false };
    return { text: error.message, quota: false };
  }
  return { text: (error as Error).message, quota: false };
}

let nextRowId = 1;

/** Convert without an account: pick or drop files (or a URL), choose a target and its options, watch each file's progress. */
export function ConvertPage(props: { person: Person | null }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [families, setFamilies] = useState<Record<string, string>>({});
  const [target, setTarget] = useState('');
  const [options, setOptions] = useState<ConversionOption[]>([]);
  const [values, setValues] = useState<OptionValues>({});
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState('');
  const [quotaReached, setQuotaReached] = useState(false);
  const [running, setRunning] = useState(false);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const inputFormats = [...new Set(rows.filter((row) => row.status === 'ready').map((row) => row.inputFormat))].filter(Boolean);
  const formatsKey = inputFormats.sort().join(',');

  const refreshUsage = () =>
    api<{ usage: Usage }>('GET', '/web/api/usage').then(
      (answer) => setUsage(answer.usage),
      () => undefined,
    );
  useEffect(() => void refreshUsage(), [props.person?.account_id]);

  // Targets: what every selected input converts to (GET /v1/formats), grouped by the family that converts it.
  useEffect(() => {
    if (inputFormats.length === 0) {
      setFamilies({});
      return;
    }
    let live = true;
    Promise.all(
      inputFormats.map(async (input) => {
        const [listed, grouped] = await Promise.all([
          api<{ formats: string[] }>('GET', `/v1/formats?input_format=${encodeURIComponent(input)}`),
          api<{ families: Record<string, string> }>('GET', `/web/api/format-families?input_format=${encodeURIComponent(input)}`),
        ]);
        return Object.fromEntries(listed.formats.map((format) => [format, grouped.families[format] ?? 'other']));
      }),
    ).then(
      (maps) => {
        if (!live) return;
        const common = Object.fromEntries(Object.entries(maps[0] ?? {}).filter(([format]) => maps.every((map) => format in map)));
        setFamilies(common);
        setProblem(Object.keys(common).length === 0 ? `No target format converts every selected file (${inputFormats.join(', ')}). Convert them separately.` : '');
        if (!(target in common)) setTarget('');
      },
      (error: unknown) => live && setProblem(explain(error).text),
    );
    return () => {
      live = false;
    };
  }, [formatsKey]);

  // Options of the pair (the first input's), rendered by type.
  useEffect(() => {
    setValues({});
    const input = inputFormats[0];
    if (!target || !input) {
      setOptions([]);
      return;
    }
    let live = true;
    api<{ options: ConversionOption[] }>('GET', `/v1/options?input_format=${encodeURIComponent(input)}&output_format=${encodeURIComponent(target)}`).then(
      (answer) => live && setOptions(answer.options),
      (error: unknown) => live && setProblem(explain(error).text),
    );
    return () => {
      live = false;
    };
  }, [target, formatsKey]);

  const update = (id: number, change: Partial<Row>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));

  const addFiles = (files: FileList | null) => {
    if (!files) return;
    const added = [...files].map((file): Row => ({ id: nextRowId++, name: file.name, inputFormat: extensionOf(file.name), file, status: 'ready', downloads: [] }));
    setRows((current) => [...current, ...added]);
    for (const row of added) if (!row.inputFormat) update(row.id, { status: 'failed', problem: 'The file name has no extension, so its format is unknown.' });
  };

  const addUrl = (event: Event) => {
    event.preventDefault();
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      setProblem('Enter a full address starting with http:// or https://.');
      return;
    }
    const name = decodeURIComponent(parsed.pathname.split('/').pop() || parsed.hostname);
    setRows((current) => [
      ...current,
      {
        id: nextRowId++,
        name,
        inputFormat: extensionOf(name),
        url: parsed.href,
        status: extensionOf(name) ? 'ready' : 'failed',
        downloads: [],
        ...(!extensionOf(name) && { problem: 'The address does not end in a file extension, so its format is unknown.' }),
      },
    ]);
    setUrl('');
    setProblem('');
  };

  const convertRow = async (row: Row) => {
    // Each conversion is charged its input's size: a file larger than what is left cannot run, so say so before uploading it.
    const left = usage
      ? Math.max(0, usage.monthly_allowance_bytes - usage.monthly_used_bytes) + Math.max(0, usage.additional_allowance_bytes - usage.additional_used_bytes)
      : Infinity;
    if (row.file && row.file.size > left) {
      setQuotaReached(true);
      update(row.id, { status: 'failed', problem: `Too big: this file is ${formatBytes(row.file.size)} and ${formatBytes(left)} is left of your allowance.` });
      return;
    }
    const importTask = row.file ? { operation: 'import/upload', filename: row.name } : { operation: 'import/url', url: row.url, filename: row.name };
    const body = {
      tag: 'website',
      tasks: {
        'import-file': importTask,
        'convert-file': { operation: 'convert', input: 'import-file', input_format: row.inputFormat, output_format: target, options: chosenOptions(options, values) },
        'export-file': { operation: 'export/url', input: ['convert-file'] },
      },
    };
    try {
      update(row.id, { status: row.file ? 'uploading' : 'waiting', problem: undefined });
      let job = await api<JobView>('POST', '/v1/process/jobs', body);
      if (row.file) {
        const form = job.tasks.find((task) => task.name === 'import-file')?.result?.form;
        if (!form) throw new Error('the server sent no upload form');
        const sent = await sendToUploadForm(form, row.file);
        if (!sent.ok) throw new ApiError(sent.status, uploadRefusal(sent.status, await sent.text().catch(() => '')));
      }
      // Every job starts on complete-upload, also one that only fetches a URL (docs/decisions.md, job statuses).
      job = await api<JobView>('POST', `/v1/process/jobs/${job.id}/complete-upload`);
      update(row.id, { status: 'waiting' });
      const last = await followJob(job.id, (current) => {
        const convert = current.tasks.find((task) => task.name === 'convert-file');
        if (current.status === 'converting' || current.status === 'processing' || convert?.status === 'processing')
          update(row.id, { status: 'processing', progress: convert?.progress });
      });
      if (last.status === 'finished') {
        update(row.id, { status: 'finished', progress: 100, downloads: (last.result?.files ?? []).map((file) => ({ url: file.url, filename: file.filename })) });
      } else {
        const failedTask = last.tasks.find((task) => task.status === 'failed' && task.result?.error);
        update(row.id, { status: 'failed', problem: `Conversion failed: ${failedTask?.result?.error ?? last.error ?? 'no reason given'}` });
      }
    } catch (error) {
      const explained = explain(error);
      if (explained.quota) setQuotaReached(true);
      update(row.id, { status: 'failed', problem: explained.text });
    }
  };

  const convertAll = async (event: Event) => {
    event.preventDefault();
    if (!target) {
      setProblem('Choose a target format first.');
      return;
    }
    setRunning(true);
    setProblem('');
    // One at a time: each file is its own job, and the anonymous plan allows one conversion per job.
    for (const row of rows.filter((candidate) => candidate.status === 'ready')) await convertRow(row);
    setRunning(false);
    void refreshUsage();
  };

  const ready = rows.some((row) => row.status === 'ready');

  return (
    <section aria-labelledby="convert-title">
      <h1 id="convert-title" tabIndex={-1}>
        Convert files
      </h1>
      {usage && (
        <p class="hint" data-testid="allowance">
          {props.person ? 'Your account' : 'Without an account'}: {Math.max(0, usage.daily_conversions_allowance - usage.daily_conversions_used)} of{' '}
          {usage.daily_conversions_allowance} conversions left today.
        </p>
      )}
      {quotaReached && (
        <div class="notice" role="alert" data-testid="quota-notice">
          {props.person ? (
            <p>
              You have used your plan's allowance. It resets daily (conversions) and monthly (GB); see your{' '}
              <a href="/dashboard" onClick={onLinkClick}>
                dashboard
              </a>
              .
            </p>
          ) : (
            <p>
              You have used today's conversions without an account.{' '}
              <a href="/signup" onClick={onLinkClick}>
                Sign up for free
              </a>{' '}
              to convert 5 files a day with 1.00 GB a month, and to get API keys.
            </p>
          )}
        </div>
      )}
      <form onSubmit={(event) => void convertAll(event)}>
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
              addFiles(event.dataTransfer?.files ?? null);
            }}
          >
            <label for="file-input">Drop files here or choose them</label>
            <input
              id="file-input"
              ref={fileInput}
              type="file"
              multiple
              onChange={(event) => {
                addFiles(event.currentTarget.files);
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

        {rows.length > 0 && (
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
                {rows.map((row) => (
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
                        <button type="button" class="link" onClick={() => setRows((current) => current.filter((other) => other.id !== row.id))}>
                          Remove<span class="visually-hidden"> {row.name}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        <fieldset class="step" disabled={inputFormats.length === 0}>
          <legend>2. Target format</legend>
          {inputFormats.length === 0 ? (
            <p class="hint">Choose a file first: the formats it converts to appear here.</p>
          ) : (
            <FormatPicker families={families} value={target} onChange={setTarget} />
          )}
        </fieldset>

        {target && inputFormats.length > 0 && (
          <fieldset class="step">
            <legend>
              3. Options for {inputFormats[0]?.toUpperCase()} to {target.toUpperCase()}
            </legend>
            <OptionsForm options={options} values={values} onChange={setValues} />
          </fieldset>
        )}

        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" class="primary" disabled={running || !ready || !target}>
          {running ? 'Converting…' : 'Convert'}
        </button>
      </form>
    </section>
  );
}
