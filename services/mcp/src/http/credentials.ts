import type { Request } from 'express';

/** `Authorization: Bearer <token or key>` or `X-API-Key: <key>`, as on the REST API. */
export function credentialOf(request: Pick<Request, 'headers'>): string | null {
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return bearer;
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ? key.trim() || null : null;
}

/** RFC 9728 5.1: where an unauthenticated client finds the protected-resource metadata. */
export function bearerChallenge(resourceMetadataUrl: string, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
