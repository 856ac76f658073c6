/**
 * The address the browser used, as this server sees it: behind a reverse proxy that the operator
 * trusts (TRUST_PROXY), the `X-Forwarded-Host` and `X-Forwarded-Proto` the proxy sets; otherwise the
 * request's own `Host` and connection. The cross-site checks of HTTP requests (guard.ts) and of
 * Socket.IO handshakes (sockets/io.ts) compare a browser's `Origin` with it, so a proxy that
 * rewrites `Host` does not make every request look cross-site.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at address `addr`, `i` hops away from this server, is a proxy to believe. */
export type ProxyTrust = (addr: string, i: number) => boolean;

/** TRUST_PROXY (config.ts) as one function, given to Fastify and used for sockets alike. */
export function proxyTrust(setting: boolean | number | string): ProxyTrust {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_addr, i) => i < setting;
  return proxyAddr.compile(setting.split(',').map((s) => s.trim()));
}

export interface PublicSite {
  host: string;
  protocol: string;
}

const lastOf = (v: string | string[] | undefined): string | undefined => {
  const s = Array.isArray(v) ? v[v.length - 1] : v;
  const last = s?.split(',').pop()?.trim();
  return last || undefined;
};

/** The host and protocol of a raw request (Fastify's `request.host`/`request.protocol` for others). */
export function publicSite(req: IncomingMessage, trust: ProxyTrust): PublicSite {
  const peer = req.socket.remoteAddress;
  const trusted = peer !== undefined && trust(peer, 0);
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  return {
    host: (trusted ? lastOf(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host ?? '',
    protocol:
      (trusted ? lastOf(req.headers['x-forwarded-proto']) : undefined) ?? (encrypted ? 'https' : 'http'),
  };
}

/**
 * Whether a browser's `Origin` is this site: the same host, and not plain http when the site is
 * served over https. No Origin (non-browser clients) passes; a sandboxed page's "null" too, as
 * before: the CSRF header still guards state-changing requests.
 */
export function sameOrigin(origin: string | undefined, site: PublicSite): boolean {
  if (!origin || origin === 'null') return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.host.toLowerCase() !== site.host.toLowerCase()) return false;
  return !(site.protocol === 'https' && url.protocol !== 'https:');
}
