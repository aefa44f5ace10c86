import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { TaskResult as TaskResultMessage } from '@transmute/contracts';

export interface UploadFormView {
  url: string;
  method: string;
  parameters: Record<string, string>;
  headers: Record<string, string>;
  expiresAt: string;
}

export interface FileView {
  url: string;
  filename: string;
}

/** Spec: "Task results"; only the fields the task has (the `TaskResult` schema in jobs.ts). */
export interface TaskResultView {
  form?: UploadFormView;
  url?: string;
  filename?: string;
  download_url?: string;
  error?: string;
  files?: FileView[];
}

export interface RenderTaskResultOptions {
  /**
   * The import/upload form is for the job's owner, who sends the bytes: the
   * REST job view shows it; a webhook body, which may be logged by a
   * receiver, leaves it out.
   */
  uploadForm: boolean;
}

/**
 * A task's result as clients see it, the one rendering for the REST job view
 * and the webhook body: the public fields that are set, nothing else (never
 * credentials, never the owning account).
 */
export function renderTaskResult(result: TaskResultMessage, options: RenderTaskResultOptions): TaskResultView {
  const view: TaskResultView = {};
  if (options.uploadForm && result.form) {
    view.form = {
      url: result.form.url,
      method: result.form.method,
      parameters: { ...result.form.parameters },
      headers: { ...result.form.headers },
      // Every stored form has an expiry; the epoch only if one were ever written without.
      expiresAt: (result.form.expiresAt ? timestampDate(result.form.expiresAt) : new Date(0)).toISOString(),
    };
  }
  if (result.url) view.url = result.url;
  if (result.filename) view.filename = result.filename;
  if (result.downloadUrl) view.download_url = result.downloadUrl;
  if (result.error) view.error = result.error;
  if (result.files.length > 0) view.files = result.files.map(({ url, filename }) => ({ url, filename }));
  return view;
}
