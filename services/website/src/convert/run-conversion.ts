import { ApiError, type JobView, api, sendToUploadForm, uploadRefusal } from '../api';
import { followJob } from '../job-events';
import type { FileRow } from './file-row';

export interface ConversionChoice {
  target: string;
  /** The options to send, as the options form gives them. */
  options: Record<string, unknown>;
}

/**
 * One file's job: create it (import, convert, export/url), upload the file
 * to its form, start it with complete-upload, then follow its events until
 * it ends. `update` gets every change of the row; a failure throws.
 */
export async function runConversion(row: FileRow, choice: ConversionChoice, update: (change: Partial<FileRow>) => void): Promise<void> {
  const importTask = row.file ? { operation: 'import/upload', filename: row.name } : { operation: 'import/url', url: row.url, filename: row.name };
  const body = {
    tag: 'website',
    tasks: {
      'import-file': importTask,
      'convert-file': { operation: 'convert', input: 'import-file', input_format: row.inputFormat, output_format: choice.target, options: choice.options },
      'export-file': { operation: 'export/url', input: ['convert-file'] },
    },
  };
  update({ status: row.file ? 'uploading' : 'waiting', problem: undefined });
  let job = await api<JobView>('POST', '/v1/process/jobs', body);
  if (row.file) {
    const form = job.tasks.find((task) => task.name === 'import-file')?.result?.form;
    if (!form) throw new Error('the server sent no upload form');
    const sent = await sendToUploadForm(form, row.file);
    if (!sent.ok) throw new ApiError(sent.status, uploadRefusal(sent.status, await sent.text().catch(() => '')));
  }
  // Every job starts on complete-upload, also one that only fetches a URL (docs/decisions.md, job statuses).
  job = await api<JobView>('POST', `/v1/process/jobs/${job.id}/complete-upload`);
  update({ status: 'waiting' });
  const last = await followJob(job.id, (current) => {
    const convert = current.tasks.find((task) => task.name === 'convert-file');
    if (current.status === 'converting' || current.status === 'processing' || convert?.status === 'processing') update({ status: 'processing', progress: convert?.progress });
  });
  if (last.status === 'finished') {
    update({ status: 'finished', progress: 100, downloads: (last.result?.files ?? []).map((file) => ({ url: file.url, filename: file.filename })) });
    return;
  }
  const failedTask = last.tasks.find((task) => task.status === 'failed' && task.result?.error);
  update({ status: 'failed', problem: `Conversion failed: ${failedTask?.result?.error ?? last.error ?? 'no reason given'}` });
}
