/**
 * Every HTTP error leaves the server as JSON `{ error: { code, message, …params } }` with a code from
 * @bke/protocol. Stack traces stay in the log.
 */
import type { HttpErrorCode } from '@bke/protocol';
import type { FastifyError, FastifyInstance } from 'fastify';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function classify(err: FastifyError): { status: number; code: HttpErrorCode; message: string } {
  const status = err.statusCode ?? 500;
  if (status === 413) return { status, code: 'http/too_large', message: 'The request body is too large.' };
  if (status === 415) return { status, code: 'http/unsupported_media_type', message: 'Send JSON.' };
  if (status === 429)
    return { status, code: 'http/rate_limited', message: 'Too many requests; try again soon.' };
  if (status === 400 && err.code?.startsWith('FST_ERR_CTP'))
    return { status, code: 'http/bad_json', message: 'The request body is not valid JSON.' };
  if (status >= 400 && status < 500) return { status, code: 'http/invalid', message: err.message };
  return { status: 500, code: 'http/internal', message: 'Something went wrong on the server.' };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply
        .status(err.statusCode)
        .send({ error: { code: err.code, message: err.message, ...err.params } });
    }
    const { status, code, message } = classify(err);
    if (status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ code: err.code, status }, 'request rejected');
    return reply.status(status).send({ error: { code, message } });
  });
}

export function notFound(method: string, url: string) {
  return { error: { code: 'http/not_found' as const, message: `No route for ${method} ${url}.` } };
}
