/** One file (or web address) on the convert page, and where it is in its conversion. */
export interface FileRow {
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

export const STATUS_TEXT: Record<FileRow['status'], string> = {
  ready: 'Ready',
  uploading: 'Uploading…',
  waiting: 'Waiting…',
  processing: 'Converting…',
  finished: 'Done',
  failed: 'Failed',
};

let nextRowId = 1;

/** The extension of a file name or URL path, lowercased; '' when it has none. */
export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,16})$/.exec(name.split(/[?#]/)[0] ?? '');
  return match ? (match[1] as string).toLowerCase() : '';
}

export function fileRow(file: File): FileRow {
  const inputFormat = extensionOf(file.name);
  return inputFormat
    ? { id: nextRowId++, name: file.name, inputFormat, file, status: 'ready', downloads: [] }
    : { id: nextRowId++, name: file.name, inputFormat, file, status: 'failed', downloads: [], problem: 'The file name has no extension, so its format is unknown.' };
}

export function urlRow(url: URL): FileRow {
  const name = decodeURIComponent(url.pathname.split('/').pop() || url.hostname);
  const inputFormat = extensionOf(name);
  return inputFormat
    ? { id: nextRowId++, name, inputFormat, url: url.href, status: 'ready', downloads: [] }
    : { id: nextRowId++, name, inputFormat, url: url.href, status: 'failed', downloads: [], problem: 'The address does not end in a file extension, so its format is unknown.' };
}
