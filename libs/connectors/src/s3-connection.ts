import { S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { type GuardedAgents, checkPublicUrl, describeUrl } from '@transmute/net-guard';
import { networkFailure, safeCause } from './network-failure';
import type { S3Target } from './targets';

export interface ConnectionLimits {
  /** Longest wait for a connection. */
  connectTimeoutMs: number;
  /** Longest silence on an open connection. */
  idleTimeoutMs: number;
}

const REGION = /^[a-z0-9-]{1,32}$/;

/**
 * An S3 client for one task's bucket. Every connection goes through the guarded
 * agents, so a custom endpoint (or a name it resolves to) must be public unless
 * the operator allows private networks. Custom endpoints use path-style
 * addressing, which every S3-compatible store serves.
 */
export function createS3Client(target: S3Target, agents: GuardedAgents, guard: { allowPrivateNetworks: boolean }, limits: ConnectionLimits): S3Client {
  if (!REGION.test(target.region)) throw ServiceFailure.validation(`region ${JSON.stringify(target.region)} is not an S3 region name`);
  let endpoint: string | undefined;
  try {
    endpoint = target.endpoint ? checkPublicUrl(target.endpoint, guard).href : undefined;
  } catch (error) {
    throw networkFailure(error, `S3 endpoint ${describeUrl(target.endpoint)}`) ?? error;
  }
  return new S3Client({
    region: target.region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    credentials: {
      accessKeyId: target.accessKeyId,
      secretAccessKey: target.secretAccessKey,
      ...(target.sessionToken ? { sessionToken: target.sessionToken } : {}),
    },
    // The client's own retries would hide an unreachable host for minutes; the work runner retries.
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: limits.connectTimeoutMs,
      requestTimeout: limits.idleTimeoutMs,
    }),
  });
}

const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken', 'AccessDenied', 'AllAccessDisabled', 'InvalidClientTokenId']);

/** A client-safe failure for an S3 error; never echoes the SDK's message (it may quote the request). */
export function s3Failure(error: unknown, target: S3Target, objectKey: string): ServiceFailure {
  if (error instanceof ServiceFailure) return error;
  const where = `S3 ${target.endpoint ? describeUrl(target.endpoint) : `region ${target.region}`} bucket ${target.bucket}`;
  const network = networkFailure(error, where);
  if (network) return network;
  const name = (error as { name?: string }).name ?? '';
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  if (name === 'NoSuchBucket') return ServiceFailure.notFound(`${where} does not exist`);
  if (name === 'NoSuchKey' || (name === 'NotFound' && status === 404)) return ServiceFailure.notFound(`${where} has no object ${objectKey}`);
  if (CREDENTIAL_ERRORS.has(name) || status === 403) {
    return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} refused the credentials (${name || status})`, false, { cause: safeCause(error) });
  }
  if (status >= 500) return ServiceFailure.unavailable(`${where} answered ${status} (${name})`, safeCause(error));
  return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `${where} failed on object ${objectKey}: ${name || `status ${status}`}`, false, { cause: safeCause(error) });
}
