/**
 * HTTP calls to the server. Every failure becomes an ApiError carrying the server's error code,
 * which screens turn into words with `errorWords` (lib/words.ts).
 */
import { CSRF_HEADER, errorBodySchema } from '@bke/protocol';
import { type ClientErrorCode, errorWords } from './words.ts';

export class ApiError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    readonly status: number,
    readonly params: Record<string, unknown> = {},
  ) {
    super(message);
  }
  /** The error as a sentence for the player. */
  get words(): string {
    return errorWords({ ...this.params, message: this.message, code: this.code });
  }
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      // The CSRF header marks the request as the app's own (a cross-site form cannot set it).
      headers: method === 'GET' ? {} : { 'content-type': 'application/json', [CSRF_HEADER]: '1' },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
  } catch {
    throw new ApiError('net/offline', 'The server cannot be reached. Check your connection.', 0);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const body = errorBodySchema.safeParse(json);
    if (!body.success)
      throw new ApiError('net/bad_answer', res.statusText, res.status, { status: res.status });
    const { code, message, ...params } = body.data.error;
    throw new ApiError(code, message, res.status, params);
  }
  return json as T;
}

/** Any thrown value as words for the player. */
export function wordsOf(e: unknown): string {
  if (e instanceof ApiError) return e.words;
  if (e instanceof Error) return e.message;
  return String(e);
}
