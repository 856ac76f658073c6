/**
 * Error codes the server sends, one vocabulary for HTTP and sockets. The client turns codes into
 * words; parameters travel beside the code (`{ code: 'http/too_large', limit: 1048576 }`).
 */
import { z } from 'zod';

export const HTTP_ERROR_CODES = [
  'http/not_found',
  'http/method_not_allowed',
  'http/bad_json',
  'http/unsupported_media_type',
  'http/too_large',
  'http/invalid',
  'http/rate_limited',
  'http/internal',
] as const;
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

export const errorBodySchema = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
    })
    .catchall(z.unknown()),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
