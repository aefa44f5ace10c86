import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AddressRefusedError, bareHost, checkHostName, refusalOf } from './address-rule';
import type { NetGuardOptions } from './guarded-agents';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves `host` once and checks every address it has; the caller connects to
 * the returned address, never to the name again. For protocols that do not go
 * through an http agent (SFTP).
 */
export async function resolvePublicAddress(host: string, options: NetGuardOptions): Promise<ResolvedAddress> {
  const name = bareHost(host);
  checkHostName(name, options);
  const literal = isIP(name);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: name, family: literal as 4 | 6 }];
  } else if (options.lookup) {
    const custom = options.lookup;
    addresses = await new Promise((resolve, reject) =>
      custom(name, { all: true }, (error, result) => {
        if (error) reject(error);
        else resolve((result as unknown as ResolvedAddress[]) ?? []);
      }),
    );
  } else {
    try {
      addresses = (await dnsLookup(name, { all: true })) as ResolvedAddress[];
    } catch (error) {
      throw new Error(`${name} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
    }
  }
  if (addresses.length === 0) throw new Error(`${name} has no address`);
  if (!options.allowPrivateNetworks) {
    for (const { address } of addresses) {
      if (options.allowAddresses?.includes(address)) continue;
      const refusal = refusalOf(address);
      if (refusal) throw new AddressRefusedError(name === address ? refusal : `${name} resolves to ${refusal}`);
    }
  }
  return addresses[0]!;
}
