export interface EngineLimits {
  /** Ceiling on any one engine run, whatever a family asks for. */
  timeoutMs: number;
  /** Default address-space ceiling of an engine run in MiB; 0 means none. */
  memoryLimitMb: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = { timeoutMs: 10 * 60_000, memoryLimitMb: 2_048 };

let current: EngineLimits = DEFAULT_ENGINE_LIMITS;

/**
 * Set once at start-up from the converter's configuration (and by the matrix
 * runner), so every family's engine calls share the operator's limits without
 * threading them through each family's constructor.
 */
export function setEngineLimits(limits: EngineLimits): void {
  current = { ...limits };
}

export function engineLimits(): EngineLimits {
  return current;
}
