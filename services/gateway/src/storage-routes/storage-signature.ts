import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import type { UrlSigner } from '@transmute/storage';

export const BAD_SIGNATURE_MESSAGE = 'signature does not match (method, path, expiry and Content-Type are signed)';

export interface SignedRouteRequest {
  method: 'PUT' | 'GET';
  /** The request path as sent, which is what was signed. */
  path: string;
  query: Record<string, unknown>;
  /** Empty for downloads: only uploads sign their Content-Type. */
  contentType: string;
}

/** The account an upload link is held to (its remaining quota is the ceiling); '' for a link without one. */
export const uploadAccountOf = (query: Record<string, unknown>): string => single(query['account']);

const single = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Throws FORBIDDEN unless the request is exactly the one the link was signed for, and in time. */
export function assertSignedRequest(signer: UrlSigner, request: SignedRouteRequest): void {
  const expiresText = single(request.query['expires']);
  const expires = /^\d{1,12}$/.test(expiresText) ? Number(expiresText) : Number.NaN;
  const signature = single(request.query['signature']);
  if (Number.isNaN(expires) || !signature) throw new ServiceFailure(ErrorCode.FORBIDDEN, BAD_SIGNATURE_MESSAGE);
  const check = signer.verify(
    {
      method: request.method,
      path: request.path,
      expires,
      contentType: request.contentType,
      filename: request.method === 'GET' ? single(request.query['filename']) : '',
      account: request.method === 'PUT' ? uploadAccountOf(request.query) : '',
    },
    signature,
  );
  if (check === 'invalid') throw new ServiceFailure(ErrorCode.FORBIDDEN, BAD_SIGNATURE_MESSAGE);
  if (check === 'expired') {
    throw new ServiceFailure(ErrorCode.FORBIDDEN, request.method === 'PUT' ? 'upload link expired' : 'download link expired');
  }
}
