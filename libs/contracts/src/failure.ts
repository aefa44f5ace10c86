import { create } from '@bufbuild/protobuf';
import { ErrorCode, ServiceErrorSchema, type ServiceError } from './gen/transmute/v1/errors_pb.js';

/**
 * An error with two faces: `code` and a client-safe `message` travel to the
 * caller; `cause` stays in the logs. `retryable` decides nak versus term.
 */
export class ServiceFailure extends Error {
  /**
   * The work was refused because this process is full (an engine queue), not
   * because it failed: the task is redelivered later and never given up on.
   */
  readonly backpressure: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable = false,
    options?: { cause?: unknown; backpressure?: boolean },
  ) {
    super(message, options);
    this.name = 'ServiceFailure';
    this.backpressure = options?.backpressure ?? false;
  }

  toMessage(): ServiceError {
    return create(ServiceErrorSchema, { code: this.code, message: this.message, retryable: this.retryable });
  }

  static fromMessage(error: ServiceError): ServiceFailure {
    return new ServiceFailure(error.code, error.message, error.retryable);
  }

  static validation(message: string): ServiceFailure {
    return new ServiceFailure(ErrorCode.VALIDATION_FAILED, message);
  }

  static notFound(message: string): ServiceFailure {
    return new ServiceFailure(ErrorCode.NOT_FOUND, message);
  }

  static unavailable(message: string, cause?: unknown): ServiceFailure {
    return new ServiceFailure(ErrorCode.UNAVAILABLE, message, true, { cause });
  }

  /** Refused for now because this process is at capacity; the work runner redelivers it later (see `backpressure`). */
  static busy(message: string): ServiceFailure {
    return new ServiceFailure(ErrorCode.UNAVAILABLE, message, true, { backpressure: true });
  }
}

/** Anything thrown that is not a ServiceFailure is an internal, retryable fault. */
export function asServiceFailure(error: unknown): ServiceFailure {
  if (error instanceof ServiceFailure) return error;
  return new ServiceFailure(ErrorCode.INTERNAL, 'internal error', true, { cause: error });
}
