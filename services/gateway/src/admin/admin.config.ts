import { type ConfigOf, baseConfig } from '@transmute/service-kit';
import { mongoConfig } from '@transmute/persistence';
import { limitsConfig } from '../limits';
import { gatewayConfig } from '../config';

/** What the admin CLI reads: the gateway's NATS, MongoDB, plans and dev-key variables, nothing about HTTP or storage. */
export const adminConfig = {
  natsUrl: baseConfig(0).natsUrl,
  natsReplicas: baseConfig(0).natsReplicas,
  devApiKey: gatewayConfig.devApiKey,
  ...mongoConfig(),
  ...limitsConfig(),
};
export type AdminConfig = ConfigOf<typeof adminConfig>;
