import { createGuardedAgents } from '@transmute/net-guard';

/**
 * The injection token of a service's one pair of guarded agents (net-guard),
 * shared by all its sources or destinations: one keep-alive pool, and one
 * place where the public-address rule is set for the whole service.
 */
export const GUARDED_AGENTS = Symbol('GUARDED_AGENTS');

/** The provider of GUARDED_AGENTS for a service's module. */
export function guardedAgentsProvider(guard: { allowPrivateNetworks: boolean }) {
  return { provide: GUARDED_AGENTS, useFactory: () => createGuardedAgents({ allowPrivateNetworks: guard.allowPrivateNetworks }) };
}
