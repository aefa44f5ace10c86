import { ContainersInfraProvider } from './containers-infra-provider';
import type { InfraProvider } from './infra-provider';
import { LocalProcessInfraProvider } from './local-process-infra-provider';

/**
 * TEST_INFRA=containers selects container images (needs a Docker engine);
 * anything else runs the locally installed binaries from `make tools`.
 */
export function createInfraProvider(env: NodeJS.ProcessEnv = process.env): InfraProvider {
  return env['TEST_INFRA'] === 'containers' ? new ContainersInfraProvider() : new LocalProcessInfraProvider();
}
