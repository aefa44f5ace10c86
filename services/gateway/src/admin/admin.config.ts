import { type ConfigOf, baseConfig } from '@transmute/service-kit';
import { accountsConfig } from '../accounts/accounts.config';
import { gatewayConfig } from '../config';

/** What the admin CLI reads: the gateway's NATS, MongoDB, plans and dev-key variables, nothing about HTTP or storage. */
export const adminConfig = {
  natsUrl: baseConfig(0).natsUrl,
  devApiKey: gatewayConfig.devApiKey,
  ...accountsConfig(),
};
export type AdminConfig = ConfigOf<typeof adminConfig>;
