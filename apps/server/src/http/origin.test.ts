import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { proxyTrust, publicSite, sameOrigin } from './origin.ts';

const request = (remoteAddress: string, headers: Record<string, string>, encrypted = false) =>
  ({ socket: { remoteAddress, encrypted }, headers }) as unknown as IncomingMessage;

describe('the site as the browser sees it', () => {
  it('believes forwarded headers only from a trusted proxy', () => {
    const headers = { host: 'app:3000', 'x-forwarded-host': 'bke.example.org', 'x-forwarded-proto': 'https' };
    expect(publicSite(request('10.0.0.2', headers), proxyTrust('10.0.0.0/8'))).toEqual({
      host: 'bke.example.org',
      protocol: 'https',
    });
    expect(publicSite(request('203.0.113.9', headers), proxyTrust('10.0.0.0/8'))).toEqual({
      host: 'app:3000',
      protocol: 'http',
    });
    expect(publicSite(request('10.0.0.2', headers), proxyTrust(false)).host).toBe('app:3000');
    expect(publicSite(request('10.0.0.2', headers), proxyTrust(1)).host).toBe('bke.example.org');
    expect(publicSite(request('10.0.0.2', { host: 'a' }, true), proxyTrust(true))).toEqual({
      host: 'a',
      protocol: 'https',
    });
  });

  it('takes the hop nearest to us when a header was set several times', () => {
    const headers = { host: 'app', 'x-forwarded-host': 'evil.example, bke.example.org' };
    expect(publicSite(request('127.0.0.1', headers), proxyTrust('loopback')).host).toBe('bke.example.org');
  });
});

describe('same origin', () => {
  const site = { host: 'bke.example.org', protocol: 'https' };
  it('passes the site itself and clients that send no Origin', () => {
    expect(sameOrigin('https://bke.example.org', site)).toBe(true);
    expect(sameOrigin('https://BKE.example.org', site)).toBe(true);
    expect(sameOrigin(undefined, site)).toBe(true);
    expect(sameOrigin('null', site)).toBe(true);
  });
  it('refuses another host, another port, plain http on an https site, and garbage', () => {
    expect(sameOrigin('https://evil.example', site)).toBe(false);
    expect(sameOrigin('https://bke.example.org:8443', site)).toBe(false);
    expect(sameOrigin('http://bke.example.org', site)).toBe(false);
    expect(sameOrigin('not a url', site)).toBe(false);
    expect(sameOrigin('http://localhost:3000', { host: 'localhost:3000', protocol: 'http' })).toBe(true);
  });
});
