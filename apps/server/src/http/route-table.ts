/**
 * Every route this server answers, as Fastify registers it (its `onRoute` hook sees each one,
 * whichever plugin adds it). Checks that must hold for every route, such as the cross-site guard
 * on each state-changing one, walk this list, so a route added later is covered without being named.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface RouteEntry {
  methods: HTTPMethods[];
  url: string;
  config: { crossSite?: 'allowed' };
}

/** Starts the list; install it before any route is added. */
export function recordRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    routes.push({ methods: [route.method].flat(), url: route.url, config: { ...route.config } });
  });
  return routes;
}
