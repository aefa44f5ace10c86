import type { ConversionOption } from '@transmute/contracts';
import { integerIn, numberOption } from '../option-builders';
import { type ArchiveFormat, levelRange } from './archive-formats';

/** The one setting archives take: how hard to compress, in the range of the target's compressor. */
export function archiveOptions(output: ArchiveFormat): ConversionOption[] {
  const range = levelRange(output);
  if (!range) return [];
  return [
    numberOption({
      name: 'compression_level',
      type: 'range',
      label: 'Compression level',
      description: 'Higher levels make a smaller archive and take longer; the lowest is fastest.',
      group: 'compression',
      min: range[0],
      max: range[1],
      step: 1,
    }),
  ];
}

/** The level asked for, when the target takes one and it is in range; otherwise the compressor's default. */
export function compressionLevel(options: Readonly<Record<string, unknown>>, output: ArchiveFormat): number | undefined {
  const range = levelRange(output);
  return range ? integerIn(options['compression_level'], range[0], range[1]) : undefined;
}
