/**
 * Byte figures in the spec's unit, decimal: 1 GB = 10^9 bytes, as quota is
 * counted. Every size ceiling and allowance is written with these, so a
 * "5 GB" in the docs is 5,000,000,000 bytes in the code.
 */
export const BYTES_PER_MB = 1_000_000;
export const BYTES_PER_GB = 1_000_000_000;

/** The spec's import/url ceiling ("up to 5 GB"); cloud imports share it. */
export const FETCH_CEILING_BYTES = 5 * BYTES_PER_GB;

/** "5 GB (5000000000 bytes)": the decimal figure people read, and the exact count. */
export function describeBytes(bytes: number): string {
  const scale =
    bytes >= BYTES_PER_GB ? { size: BYTES_PER_GB, unit: 'GB' } : bytes >= BYTES_PER_MB ? { size: BYTES_PER_MB, unit: 'MB' } : bytes >= 1_000 ? { size: 1_000, unit: 'kB' } : null;
  if (!scale) return `${bytes} bytes`;
  return `${Number((bytes / scale.size).toFixed(2))} ${scale.unit} (${bytes} bytes)`;
}
