import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

import type { AddressRule } from './address-rule';

/**
 * `allowPrivateNetworks` is the operator's TRANSMUTE_ALLOW_PRIVATE_NETWORKS (true
 * refuses nothing); `allowAddresses` lists exact IPs let through although not
 * public, for tests that need one "public-looking" loopback server (127.0.0.2).
 */
export interface NetGuardOptions extends AddressRule {
  /** Resolver used instead of dns.lookup (tests map names to chosen addresses). */
  lookup?: LookupFunction;
}

export interface GuardedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * http and https agents that check the address where the connection is made:
 * IP literals before connecting, names on the address the resolver returned,
 * which is the address the socket then connects to (no second lookup, so DNS
 * rebinding cannot slip through). Reused for keep-alive, like any agent.
 */
export function createGuardedAgents(options: NetGuardOptions): GuardedAgents {
  const filter = {
    allowPrivateIPAddress: options.allowPrivateNetworks,
    allowMetaIPAddress: options.allowPrivateNetworks,
    allowIPAddressList: options.allowAddresses ?? [],
    keepAlive: true,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  };
  return { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
}
