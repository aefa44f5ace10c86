import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';

/** Limits on what one archive may expand to, read when the archive family is created. */
export const archiveLimitsConfig = {
  maxExpandedMb: envVar(
    'TRANSMUTE_ARCHIVE_MAX_EXPANDED_MB',
    positiveInt().default(2_048),
    'Largest total size (MiB) an archive may expand to; extraction stops and the task fails past it.',
  ),
  maxRatio: envVar(
    'TRANSMUTE_ARCHIVE_MAX_RATIO',
    positiveInt().default(200),
    'Largest expanded-to-compressed size ratio allowed once the expanded size passes 16 MiB (zip bomb guard).',
  ),
  maxEntries: envVar('TRANSMUTE_ARCHIVE_MAX_ENTRIES', positiveInt().default(100_000), 'Most entries (files, folders, links) an archive may hold.'),
};

export type ArchiveLimits = ConfigOf<typeof archiveLimitsConfig>;
