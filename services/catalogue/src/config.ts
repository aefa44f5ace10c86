import { z } from 'zod';
import { FAMILY_NAME_PATTERN } from '@transmute/contracts';
import { type ConfigOf, baseConfig, envVar } from '@transmute/service-kit';
import { DEFAULT_FAMILY_PRIORITY } from './family-priority';

export const catalogueConfig = {
  ...baseConfig(8085),
  familyPriority: envVar(
    'TRANSMUTE_CATALOGUE_FAMILY_PRIORITY',
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(FAMILY_NAME_PATTERN)).min(1))
      .default([...DEFAULT_FAMILY_PRIORITY]),
    'Comma-separated families, first wins: which family owns a pair that several running families convert (unlisted families come after, by name).',
  ),
};

export type CatalogueConfig = ConfigOf<typeof catalogueConfig>;
