/** Delay before the next delivery of a retryable failure: the schedule's entry, its last entry once exhausted. */
export function retryDelayMs(schedule: readonly number[], deliveryCount: number): number {
  if (schedule.length === 0) return 0;
  return schedule[Math.min(deliveryCount - 1, schedule.length - 1)] ?? 0;
}
