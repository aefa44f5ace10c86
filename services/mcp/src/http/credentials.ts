/** RFC 9728 5.1: where an unauthenticated client finds the protected-resource metadata. */
export function bearerChallenge(resourceMetadataUrl: string, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
