/**
 * HTTP calls to the server. Every failure becomes an ApiError carrying the server's error code,
 * which screens turn into words with `errorWords` (lib/words.ts).
 */
import {
  CSRF_HEADER,
  errorBodySchema,
  ROUTES,
  type RouteInput,
  type RouteName,
  type RouteResponse,
  routeUrl,
} from '@bke/protocol';
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

/**
 * Calls the route named `name` of the protocol's tables: its parameters, query and body are typed
 * from the route's schemas and so is the answer. A development build also parses the answer with
 * the route's response schema, so a server that drifts from the protocol fails loudly there.
 */
export async function call<K extends RouteName>(
  name: K,
  ...[input]: RouteInput<K> extends { params?: undefined; body?: undefined }
    ? [input?: RouteInput<K>]
    : [input: RouteInput<K>]
): Promise<RouteResponse<K>> {
  const route = ROUTES[name];
  const given = (input ?? {}) as RouteInput<K>;
  const json = await request(route.method, routeUrl(name, given), given.body);
  if (import.meta.env.DEV) return route.response.parse(json) as RouteResponse<K>;
  return json as RouteResponse<K>;
}

async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
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
  return json;
}

/** Any thrown value as words for the player. */
export function wordsOf(e: unknown): string {
  if (e instanceof ApiError) return e.words;
  if (e instanceof Error) return e.message;
  return String(e);
}
