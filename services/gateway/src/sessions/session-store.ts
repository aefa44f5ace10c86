import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';

/** Sessions end this long after sign-in (the KV bucket forgets them then too). */
export const SESSION_TTL_MS = 7 * 24 * 3_600_000;

/** The website's sign-in sessions: SHA-256 of the session token -> SessionRecord. */
export const SESSIONS_BUCKET = { name: 'people_sessions', ttlMs: SESSION_TTL_MS };

export interface SessionRecord {
  personId: string;
  accountId: string;
  email: string;
  createdAtMs: number;
  expiresAtMs: number;
}

const keyOf = (token: string): string => `session.${createHash('sha256').update(token, 'utf8').digest('hex')}`;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sign-in sessions in NATS KV (hot data: read on every website request, on
 * any replica). The cookie holds a random token; the store holds only its
 * SHA-256, so a read of the store opens no session.
 */
@Injectable()
export class SessionStore {
  private readonly bucket: KvBucket<SessionRecord>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.bucket = new KvBucket(connection, SESSIONS_BUCKET, KvCodecs.json<SessionRecord>());
  }

  async create(person: Pick<SessionRecord, 'personId' | 'accountId' | 'email'>, nowMs = Date.now()): Promise<{ token: string; record: SessionRecord }> {
    const token = randomBytes(32).toString('base64url');
    const record: SessionRecord = { ...person, createdAtMs: nowMs, expiresAtMs: nowMs + SESSION_TTL_MS };
    // 256 random bits: a collision is not a case to handle, but never overwrite another session.
    if ((await this.bucket.create(keyOf(token), record)) === null) throw new Error('session token collision');
    return { token, record };
  }

  async find(token: string, nowMs = Date.now()): Promise<SessionRecord | null> {
    if (!TOKEN.test(token)) return null;
    const record = (await this.bucket.get(keyOf(token)))?.value;
    return record && record.expiresAtMs > nowMs ? record : null;
  }

  async delete(token: string): Promise<void> {
    if (!TOKEN.test(token)) return;
    await this.bucket.delete(keyOf(token));
  }
}
