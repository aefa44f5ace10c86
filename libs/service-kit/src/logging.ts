import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { REDACTED_PATHS, redactUrl } from './redaction';
import { REQUEST_ID_HEADER, acceptRequestId, currentRequestId } from './request-context';

/** JSON logs on stdout, one line per event, with secrets redacted and a request id on every line. */
export function loggingModule(serviceName: string, level: string, destination?: DestinationStream) {
  const options = {
    level,
    base: { service: serviceName },
    messageKey: 'message',
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The request-id middleware may have chosen the id already; otherwise the same rule applies.
    genReqId: (req: IncomingMessage & { id?: unknown }) => (typeof req.id === 'string' ? req.id : acceptRequestId(req.headers[REQUEST_ID_HEADER])),
    // Lines written inside an HTTP request, an RPC handler or a JetStream handler name the request they serve.
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // Probes and scrapes would drown the useful lines.
    autoLogging: { ignore: (req: IncomingMessage) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') },
  };
  // stdout in production; a test may read the lines from its own stream.
  return LoggerModule.forRoot({ pinoHttp: destination ? [options, destination] : options });
}
