import { useEffect, useState } from 'preact/hooks';
import { formatBytes, type Person } from '../api';
import { FileDrop } from '../components/file-drop';
import { FileTable } from '../components/file-table';
import { FormatPicker } from '../components/format-picker';
import { chosenOptions, type OptionValues, OptionsForm } from '../components/options-form';
import { QuotaNotice } from '../components/quota-notice';
import { explain } from '../convert/explain';
import { type FileRow, fileRow, urlRow } from '../convert/file-row';
import { runConversion } from '../convert/run-conversion';
import { usePairOptions } from '../hooks/use-pair-options';
import { useTargets } from '../hooks/use-targets';
import { bytesLeft, useUsage } from '../hooks/use-usage';

/** Convert without an account: pick or drop files (or a URL), choose a target and its options, watch each file's progress. */
export function ConvertPage(props: { person: Person | null }) {
  const [rows, setRows] = useState<FileRow[]>([]);
  const [target, setTarget] = useState('');
  const [values, setValues] = useState<OptionValues>({});
  const [problem, setProblem] = useState('');
  const [quotaReached, setQuotaReached] = useState(false);
  const [running, setRunning] = useState(false);
  const { usage, refresh: refreshUsage } = useUsage(props.person?.account_id);

  const inputFormats = [...new Set(rows.filter((row) => row.status === 'ready').map((row) => row.inputFormat))].filter(Boolean).sort();
  const targets = useTargets(inputFormats);
  // Options of the pair (the first input's), rendered by type.
  const pair = usePairOptions(inputFormats[0], target in targets.families ? target : '');
  const chosenTarget = target in targets.families ? target : '';

  const update = (id: number, change: Partial<FileRow>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));
  // Options belong to one pair: a new target or a new first input starts from the defaults.
  useEffect(() => setValues({}), [chosenTarget, inputFormats[0]]);

  const addUrl = (text: string): boolean => {
    try {
      setRows((current) => [...current, urlRow(new URL(text))]);
      setProblem('');
      return true;
    } catch {
      setProblem('Enter a full address starting with http:// or https://.');
      return false;
    }
  };

  const convertRow = async (row: FileRow) => {
    // Each conversion is charged its input's size: a file larger than what is left cannot run, so say so before uploading it.
    const left = bytesLeft(usage);
    if (row.file && row.file.size > left) {
      setQuotaReached(true);
      update(row.id, { status: 'failed', problem: `Too big: this file is ${formatBytes(row.file.size)} and ${formatBytes(left)} is left of your allowance.` });
      return;
    }
    try {
      await runConversion(row, { target: chosenTarget, options: chosenOptions(pair.options, values) }, (change) => update(row.id, change));
    } catch (error) {
      const explained = explain(error);
      if (explained.quota) setQuotaReached(true);
      update(row.id, { status: 'failed', problem: explained.text });
    }
  };

  const convertAll = async (event: Event) => {
    event.preventDefault();
    if (!chosenTarget) {
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
  const shownProblem = problem || targets.problem || pair.problem;

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
      {quotaReached && <QuotaNotice signedIn={props.person !== null} />}
      <form onSubmit={(event) => void convertAll(event)}>
        <FileDrop onFiles={(files) => files && setRows((current) => [...current, ...[...files].map(fileRow)])} onUrl={addUrl} />
        <FileTable rows={rows} onRemove={(id) => setRows((current) => current.filter((other) => other.id !== id))} />

        <fieldset class="step" disabled={inputFormats.length === 0}>
          <legend>2. Target format</legend>
          {inputFormats.length === 0 ? (
            <p class="hint">Choose a file first: the formats it converts to appear here.</p>
          ) : (
            <FormatPicker families={targets.families} value={chosenTarget} onChange={setTarget} />
          )}
        </fieldset>

        {chosenTarget && inputFormats.length > 0 && (
          <fieldset class="step">
            <legend>
              3. Options for {inputFormats[0]?.toUpperCase()} to {chosenTarget.toUpperCase()}
            </legend>
            <OptionsForm options={pair.options} values={values} onChange={setValues} />
          </fieldset>
        )}

        {shownProblem && (
          <p class="error" role="alert">
            {shownProblem}
          </p>
        )}
        <button type="submit" class="primary" disabled={running || !ready || !chosenTarget}>
          {running ? 'Converting…' : 'Convert'}
        </button>
      </form>
    </section>
  );
}
