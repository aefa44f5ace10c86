import { ID_PATTERN } from '@transmute/api-schema';
import { ServiceFailure } from '@transmute/contracts';

/** Ids that cannot exist are answered like ids that do not: 404, no round trip. */
export function checkedJobId(jobId: string): string {
  if (!ID_PATTERN.test(jobId)) throw ServiceFailure.notFound('no such job');
  return jobId;
}
