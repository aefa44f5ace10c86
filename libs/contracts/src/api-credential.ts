/** A request's headers as Node gives them (lowercase names). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The credential a call to the public API carries: `Authorization: Bearer
 * <key or token>` or `X-API-Key: <key>`, the bearer first when both are sent
 * (spec: Authentication). The gateway and the MCP server read it the same way.
 */
export function credentialOf(headers: RequestHeaders): string | null {
  const authorization = headers['authorization'];
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return bearer;
  const header = headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ? key.trim() || null : null;
}
