import { envVar, flag, positiveInt } from '@transmute/service-kit';

/** The operator's switch, read by every service that connects to client-given addresses. */
export function netGuardConfig() {
  return {
    allowPrivateNetworks: envVar(
      'TRANSMUTE_ALLOW_PRIVATE_NETWORKS',
      flag().default(false),
      'Let imports, exports and webhooks reach private, loopback and link-local addresses (on-premises installs, tests). Default false: only public addresses.',
    ),
    maxRedirects: envVar('TRANSMUTE_MAX_REDIRECTS', positiveInt().max(20).default(5), 'Redirects import/url follows, each to a checked public address.'),
  };
}
