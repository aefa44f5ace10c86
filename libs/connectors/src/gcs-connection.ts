import { Storage as GcsStorage } from '@google-cloud/storage';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { networkFailure, safeCause } from './network-failure';
import type { GcsTarget } from './targets';

export interface GcsOptions {
  /**
   * The operator's endpoint (fake-gcs-server in tests); empty for Google. Clients
   * cannot choose it, so the public-address rule has nothing to check here.
   */
  apiEndpoint: string;
}

/** A Google Cloud Storage client with the task's service account. */
export function createGcsClient(target: GcsTarget, options: GcsOptions): GcsStorage {
  return new GcsStorage({
    ...(target.projectId ? { projectId: target.projectId } : {}),
    credentials: { client_email: target.clientEmail, private_key: target.privateKey },
    ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
    // The work runner retries; the library's own backoff would hide failures for minutes.
    retryOptions: { autoRetry: false },
  });
}

/**
 * A client-safe failure for a GCS error. A 404 does not say whether the bucket
 * or the object is missing, so `bucketExists` (asked only then) tells them apart.
 */
export async function gcsFailure(error: unknown, target: GcsTarget, objectKey: string, bucketExists?: () => Promise<boolean>): Promise<ServiceFailure> {
  if (error instanceof ServiceFailure) return error;
  const where = `Google Cloud Storage bucket ${target.bucket}`;
  const network = networkFailure(error, where);
  if (network) return network;
  const message = (error as Error | undefined)?.message ?? '';
  // JSON API calls carry the status in `code`; resumable uploads (gaxios) in `response.status` or only in the message.
  const { code, response } = (error ?? {}) as { code?: unknown; response?: { status?: unknown } };
  const status = Number(code) || Number(response?.status) || Number(/status code (\d{3})/.exec(message)?.[1]) || 0;
  if (status === 404) {
    const bucketMissing = bucketExists ? !(await bucketExists().catch(() => true)) : /bucket/i.test(message);
    return bucketMissing ? ServiceFailure.notFound(`${where} does not exist`) : ServiceFailure.notFound(`${where} has no object ${objectKey}`);
  }
  if (status === 401 || status === 403 || /invalid_grant|private key|DECODER|PEM/i.test(message)) {
    return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} refused the service account credentials`, false, { cause: safeCause(error) });
  }
  if (status >= 500) return ServiceFailure.unavailable(`${where} answered ${status}`, safeCause(error));
  return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `${where} failed on object ${objectKey}${status ? ` (${status})` : ''}`, false, { cause: safeCause(error) });
}
