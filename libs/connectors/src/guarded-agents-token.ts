/**
 * The injection token of a service's one pair of guarded agents (net-guard),
 * shared by all its sources or destinations: one keep-alive pool, and one
 * place where the public-address rule is set for the whole service.
 */
export const GUARDED_AGENTS = Symbol('GUARDED_AGENTS');
