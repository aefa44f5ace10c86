import type { JetStreamClient, KV } from 'nats';
import { CATALOGUE_MANIFESTS_BUCKET } from '@transmute/contracts';

/** A family that stops refreshing its manifest drops out of the catalogue after this long. */
export const MANIFEST_TTL_MS = 60_000;
export const MANIFEST_REFRESH_MS = 20_000;

/** The KV bucket where running converter families keep their manifests (created on first use). */
export function openManifestBucket(js: JetStreamClient): Promise<KV> {
  return js.views.kv(CATALOGUE_MANIFESTS_BUCKET, { history: 1, ttl: MANIFEST_TTL_MS });
}
