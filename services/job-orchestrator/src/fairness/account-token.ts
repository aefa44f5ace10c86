/** Account ids may hold characters a KV key or a subject token may not. */
export const accountToken = (accountId: string): string => Buffer.from(accountId).toString('hex') || '00';

/** A slot is held by one convert task of one job, whatever its attempt (a re-dispatch keeps it). */
export const slotHolder = (jobId: string, taskName: string): string => `${jobId}.${taskName}`;
