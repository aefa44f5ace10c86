import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Buckets, KvBuckets } from '../accounts/kv-buckets';

/** Sessions end this long after sign-in (the KV bucket forgets them then too). */
export const SESSION_TTL_MS = Buckets.sessions.ttlMs;

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
  constructor(private readonly buckets: KvBuckets) {}

  async create(person: Pick<SessionRecord, 'personId' | 'accountId' | 'email'>, nowMs = Date.now()): Promise<{ token: string; record: SessionRecord }> {
    const token = randomBytes(32).toString('base64url');
    const record: SessionRecord = { ...person, createdAtMs: nowMs, expiresAtMs: nowMs + SESSION_TTL_MS };
    await (await this.buckets.get('sessions')).create(keyOf(token), new TextEncoder().encode(JSON.stringify(record)));
    return { token, record };
  }

  async find(token: string, nowMs = Date.now()): Promise<SessionRecord | null> {
    if (!TOKEN.test(token)) return null;
    const entry = await (await this.buckets.get('sessions')).get(keyOf(token));
    if (!entry || entry.operation !== 'PUT') return null;
    const record = JSON.parse(new TextDecoder().decode(entry.value)) as SessionRecord;
    return record.expiresAtMs > nowMs ? record : null;
  }

  async delete(token: string): Promise<void> {
    if (!TOKEN.test(token)) return;
    await (await this.buckets.get('sessions')).delete(keyOf(token));
  }
}
