/** File name of a produced file: the source's stem with the new extension. */
export function outputFilename(sourceFilename: string, format: string): string {
  const base = sourceFilename.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base || 'file';
  return `${stem}.${format}`;
}
