import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedRequest {
  method: string;
  path: string;
  expires: number;
  contentType: string;
  filename: string;
  /** Uploads held to an account's remaining quota name the account; signed, so a client cannot move the charge. */
  account?: string;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * HMAC-SHA256 over method, path, expiry, Content-Type, download filename and
 * (uploads held to a quota) the account: change any of them and the link
 * stops working.
 */
export class UrlSigner {
  constructor(private readonly key: string) {}

  sign(request: SignedRequest): string {
    const fields = ['transmute-storage-v1', request.method.toUpperCase(), request.path, String(request.expires), request.contentType, request.filename];
    // Only links that carry an account sign it: links made before it existed keep their signature.
    if (request.account) fields.push(`account=${request.account}`);
    const canonical = fields.join('\n');
    return createHmac('sha256', this.key).update(canonical).digest('base64url');
  }

  verify(request: SignedRequest, signature: string, nowSeconds = Math.floor(Date.now() / 1000)): SignatureCheck {
    const expected = Buffer.from(this.sign(request));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return request.expires < nowSeconds ? 'expired' : 'valid';
  }
}
