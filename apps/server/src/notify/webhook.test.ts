import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, sendWebhook } from './webhook.ts';

describe('webhook targets', () => {
  it('tells private, loopback and link-local addresses from public ones', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
    expect(isPrivateAddress('not-an-ip')).toBe(true);
  });

  it('never posts inside the network unless allowed, by address or by a name that resolves there', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const message = { text: 'x', data: {} };
      for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, 'http://[::1]:9/']) {
        const r = await sendWebhook(url, message);
        expect(r.delivered, url).toBe(false);
      }
      expect(hits).toBe(0);
      expect(await sendWebhook(`http://127.0.0.1:${port}/`, message, { allowPrivate: true })).toEqual({
        delivered: true,
        status: 204,
      });
      expect(hits).toBe(1);
      expect(await sendWebhook('ftp://example.org/', message)).toMatchObject({ delivered: false });
    } finally {
      server.close();
    }
  });
});
