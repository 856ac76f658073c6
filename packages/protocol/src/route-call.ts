/**
 * A call to any HTTP route, typed from the route tables: the path's parameters, the query and the
 * body a route takes and the answer it gives are inferred from its schemas, so a client cannot
 * drift from what the server registers and documents. The transport (fetch, cookies, the CSRF
 * header, errors in words) stays with the client; this file only knows the tables.
 */
import type { z } from 'zod';
import { HTTP_ROUTES } from './http-routes.ts';
import { MODERATION_ROUTES } from './moderation.ts';

/** Every route the server registers, by name (the two tables share no name: checked below). */
export const ROUTES = { ...HTTP_ROUTES, ...MODERATION_ROUTES };
export type RouteName = keyof typeof ROUTES;
type Spec<K extends RouteName> = (typeof ROUTES)[K];

// A name in both tables would silently hide one route: this line stops compiling if that happens.
const noSharedName: Extract<keyof typeof HTTP_ROUTES, keyof typeof MODERATION_ROUTES> extends never
  ? true
  : never = true;
void noSharedName;

/** `':id' | ':playerId'`… of a path, without the colon. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type RouteParams<K extends RouteName> = { [N in ParamNames<Spec<K>['path']>]: string };
type RouteBody<K extends RouteName> =
  Spec<K> extends { body: z.ZodType } ? z.input<Spec<K>['body']> : undefined;
type RouteQuery<K extends RouteName> =
  Spec<K> extends { query: z.ZodType } ? z.input<Spec<K>['query']> : undefined;
export type RouteResponse<K extends RouteName> = z.output<Spec<K>['response']>;

/** What a call to route K needs: only the parts the route has, each required or absent accordingly. */
export type RouteInput<K extends RouteName> = ([ParamNames<Spec<K>['path']>] extends [never]
  ? { params?: undefined }
  : { params: RouteParams<K> }) &
  (RouteBody<K> extends undefined ? { body?: undefined } : { body: RouteBody<K> }) &
  (RouteQuery<K> extends undefined ? { query?: undefined } : { query?: RouteQuery<K> });

/** The URL of a call: parameters filled in and encoded, the query's defined fields appended. */
export function routeUrl<K extends RouteName>(name: K, input: RouteInput<K>): string {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = ROUTES[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${name} needs the parameter ${key}`);
    return encodeURIComponent(value);
  });
  const query = Object.entries((input.query ?? {}) as Record<string, unknown>).filter(
    (e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null,
  );
  if (query.length === 0) return path;
  return `${path}?${query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}`;
}
