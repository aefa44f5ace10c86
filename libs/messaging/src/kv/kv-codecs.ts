import { type DescMessage, type MessageShape, fromBinary, toBinary } from '@bufbuild/protobuf';

/** How a bucket's values are written and read. */
export interface KvCodec<T> {
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const KvCodecs = {
  /** A JSON document (the shape is the caller's type; nothing checks it on read). */
  json<T>(): KvCodec<T> {
    return { encode: (value) => encoder.encode(JSON.stringify(value)), decode: (bytes) => JSON.parse(decoder.decode(bytes)) as T };
  },
  /** A protobuf message of `schema`, binary. */
  proto<S extends DescMessage>(schema: S): KvCodec<MessageShape<S>> {
    return { encode: (value) => toBinary(schema, value), decode: (bytes) => fromBinary(schema, bytes) };
  },
  /** A whole number written as decimal text (readable with `nats kv get`). */
  integer: {
    encode: (value: number) => encoder.encode(String(value)),
    decode: (bytes: Uint8Array) => Number(decoder.decode(bytes)) || 0,
  } satisfies KvCodec<number>,
  /** The bytes as they are. */
  bytes: { encode: (value: Uint8Array) => value, decode: (bytes: Uint8Array) => bytes } satisfies KvCodec<Uint8Array>,
};
