import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedRequest {
  method: string;
  path: string;
  expires: number;
  contentType: string;
  filename: string;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * HMAC-SHA256 over method, path, expiry, Content-Type and download filename:
 * change any of them and the link stops working.
 */
export class UrlSigner {
  constructor(private readonly key: string) {}

  sign(request: SignedRequest): string {
    const canonical = ['transmute-storage-v1', request.method.toUpperCase(), request.path, String(request.expires), request.contentType, request.filename].join('\n');
    return createHmac('sha256', this.key).update(canonical).digest('base64url');
  }

  verify(request: SignedRequest, signature: string, nowSeconds = Math.floor(Date.now() / 1000)): SignatureCheck {
    const expected = Buffer.from(this.sign(request));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return request.expires < nowSeconds ? 'expired' : 'valid';
  }
}
