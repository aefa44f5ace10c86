import { createHmac, timingSafeEqual } from 'node:crypto';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type DownloadGrant, DownloadGrantSchema } from '@transmute/contracts';

/**
 * Stateless download tokens: a DownloadGrant in protobuf, then its HMAC.
 * Any holder of the key can mint them (orchestrator for convert results,
 * exporter for export/url); the gateway checks them.
 */
export class DownloadTokens {
  constructor(private readonly key: string) {}

  mint(grant: Omit<DownloadGrant, '$typeName'>): string {
    const payload = Buffer.from(toBinary(DownloadGrantSchema, create(DownloadGrantSchema, grant))).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The grant, or null when the token is malformed, forged or expired. */
  verify(token: string, nowSeconds = Math.floor(Date.now() / 1000)): DownloadGrant | null {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let grant: DownloadGrant;
    try {
      grant = fromBinary(DownloadGrantSchema, Buffer.from(payload, 'base64url'));
    } catch {
      return null;
    }
    return Number(grant.expiresAtUnix) < nowSeconds ? null : grant;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`transmute-download-v1\n${payload}`).digest('base64url');
  }
}
