/**
 * Security headers on every answer, by @fastify/helmet. The content-security policy allows only
 * this origin: the built web app is one script and one style sheet from /assets, its board is
 * SVG drawn by script, and it talks to /api and /socket.io on the same origin (`'self'` covers the
 * WebSocket too). Nothing may frame the site. Checked in Chromium by the browser tests, which fail
 * on any console error (a CSP violation is one).
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export async function installSecurityHeaders(
  app: FastifyInstance,
  options: { https: boolean },
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Only where the site is served over HTTPS: on plain http it would send the page's own
        // requests to an https port that is not there.
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: options.https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}
