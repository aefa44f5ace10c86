import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { UrlSigner } from '@transmute/storage';
import { BAD_SIGNATURE_MESSAGE, type SignedRouteRequest, assertSignedRequest } from './storage-signature';

const signer = new UrlSigner('s'.repeat(32));
const path = '/storage/jobs/abc/in/photo.png';
const future = Math.floor(Date.now() / 1000) + 600;
const past = Math.floor(Date.now() / 1000) - 1;

function signedPut(expires: number, contentType = 'application/octet-stream'): SignedRouteRequest {
  const signature = signer.sign({ method: 'PUT', path, expires, contentType, filename: '' });
  return { method: 'PUT', path, contentType, query: { expires: String(expires), signature } };
}

function signedGet(expires: number, filename: string): SignedRouteRequest {
  const signature = signer.sign({ method: 'GET', path, expires, contentType: '', filename });
  return { method: 'GET', path, contentType: '', query: { expires: String(expires), signature, filename } };
}

function outcome(request: SignedRouteRequest): string {
  try {
    assertSignedRequest(signer, request);
    return 'valid';
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceFailure);
    expect((error as ServiceFailure).code).toBe(ErrorCode.FORBIDDEN);
    return (error as ServiceFailure).message;
  }
}

describe('assertSignedRequest', () => {
  it.each<[string, SignedRouteRequest, string]>([
    ['a signed upload', signedPut(future), 'valid'],
    ['a signed download', signedGet(future, 'out.jpg'), 'valid'],
    ['another Content-Type', { ...signedPut(future), contentType: 'image/png' }, BAD_SIGNATURE_MESSAGE],
    ['another path', { ...signedPut(future), path: '/storage/jobs/abc/other' }, BAD_SIGNATURE_MESSAGE],
    ['a GET with an upload signature', { ...signedPut(future), method: 'GET', contentType: '' }, BAD_SIGNATURE_MESSAGE],
    ['another download filename', { ...signedGet(future, 'out.jpg'), query: { ...signedGet(future, 'out.jpg').query, filename: 'x.exe' } }, BAD_SIGNATURE_MESSAGE],
    ['a moved expiry', { ...signedPut(future), query: { ...signedPut(future).query, expires: String(future + 60) } }, BAD_SIGNATURE_MESSAGE],
    ['no signature', { ...signedPut(future), query: { expires: String(future) } }, BAD_SIGNATURE_MESSAGE],
    ['a non-numeric expiry', { ...signedPut(future), query: { ...signedPut(future).query, expires: '1e3' } }, BAD_SIGNATURE_MESSAGE],
    ['a repeated query parameter', { ...signedPut(future), query: { ...signedPut(future).query, signature: ['a', 'b'] } }, BAD_SIGNATURE_MESSAGE],
    ['an expired upload link', signedPut(past), 'upload link expired'],
    ['an expired download link', signedGet(past, 'out.jpg'), 'download link expired'],
  ])('%s', (_name, request, expected) => {
    expect(outcome(request)).toBe(expected);
  });
});
