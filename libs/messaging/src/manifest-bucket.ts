import { gunzipSync, gzipSync } from 'node:zlib';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import type { NatsConnection } from 'nats';
import { CATALOGUE_MANIFESTS_BUCKET, type FamilyManifest, FamilyManifestSchema } from '@transmute/contracts';
import { KvBucket } from './kv/kv-bucket';
import { KvCodecs } from './kv/kv-codecs';

/** A family that stops refreshing its manifest drops out of the catalogue after this long. */
export const MANIFEST_TTL_MS = 60_000;
export const MANIFEST_REFRESH_MS = 20_000;

/** The KV bucket where running converter families keep their manifests, encoded by `encodeManifest` (kept as bytes: the catalogue compares them before decoding). */
export function manifestBucket(connection: NatsConnection): KvBucket<Uint8Array> {
  return new KvBucket(connection, { name: CATALOGUE_MANIFESTS_BUCKET, ttlMs: MANIFEST_TTL_MS }, KvCodecs.bytes);
}

/**
 * A manifest repeats the same option tables on thousands of pairs (the image
 * family's is 4.8 MB as plain protobuf), far over NATS's default 1 MB payload;
 * gzip brings it to a few tens of kilobytes.
 */
export function encodeManifest(manifest: FamilyManifest): Uint8Array {
  return gzipSync(toBinary(FamilyManifestSchema, manifest), { level: 9 });
}

export function decodeManifest(value: Uint8Array): FamilyManifest {
  return fromBinary(FamilyManifestSchema, gunzipSync(value));
}
