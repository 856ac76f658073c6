/**
 * Every HTTP error leaves the server as JSON `{ error: { code, message, …params } }` with a code from
 * @bke/protocol. Stack traces stay in the log.
 */
import type { Socket } from 'node:net';
import type { ErrorCode, HttpErrorCode } from '@bke/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
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
  if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_INVALID_URL')
    return { status: 400, code: 'http/bad_url', message: 'The address could not be read.' };
  if (status === 408) return { status, code: 'http/timeout', message: 'The request took too long.' };
  if (status === 431 || status === 414)
    return { status, code: 'http/headers_too_large', message: 'The address or headers are too long.' };
  if (status >= 400 && status < 500) return { status, code: 'http/invalid', message: err.message };
  return { status: 500, code: 'http/internal', message: 'Something went wrong on the server.' };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      // Every refusal that says how long to wait says it in the header too (RFC 9110 §10.2.3).
      const wait = err.params.retryAfterSeconds;
      if (typeof wait === 'number' && !reply.hasHeader('Retry-After'))
        void reply.header('Retry-After', String(Math.max(1, Math.ceil(wait))));
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

/** Fastify's router refusals (a URL it cannot decode), answered like every other error. */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, code, message } = classify(err);
  request.log.info({ code: err.code, status }, 'request rejected');
  void reply.status(status).send({ error: { code, message } });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * A request Node's HTTP parser could not read (bad framing, over-long request line or headers):
 * no Fastify request exists, so the answer is written on the socket, still as `{ error: { code } }`.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message]: [number, HttpErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'http/headers_too_large', 'The address or headers are too long.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'http/timeout', 'The request took too long.']
        : [400, 'http/bad_request', 'The request could not be read.'];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function notFound(method: string, url: string) {
  return { error: { code: 'http/not_found' as const, message: `No route for ${method} ${url}.` } };
}
