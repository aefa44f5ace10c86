import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { REDACTED_PATHS, redactUrl } from './redaction';

export const REQUEST_ID_HEADER = 'x-request-id';

/** JSON logs on stdout, one line per event, with secrets redacted and a request id on every line. */
export function loggingModule(serviceName: string, level: string) {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      base: { service: serviceName },
      messageKey: 'message',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label: string) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage) => {
        const given = req.headers[REQUEST_ID_HEADER];
        return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      // Probes and scrapes would drown the useful lines.
      autoLogging: { ignore: (req: IncomingMessage) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') },
    },
  });
}
