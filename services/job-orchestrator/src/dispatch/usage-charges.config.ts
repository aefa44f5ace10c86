import { envVar, flag } from '@transmute/service-kit';

export function usageChargesConfig() {
  return {
    usageMetering: envVar(
      'TRANSMUTE_USAGE_METERING',
      flag().default(true),
      "Charge each convert's input size to the account (accounts.usage.charge, answered by the gateway) before it runs; false only where no gateway runs (single-service tests).",
    ),
  };
}
