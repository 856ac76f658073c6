/**
 * The built web app as a browser gets it: text assets precompressed at build time (brotli or gzip
 * by the request's Accept-Encoding, the file itself otherwise), hashed files cached for a year as
 * immutable, index.html revalidated every time, the security headers on all of it, a missing asset
 * a 404 rather than the app's page; and Socket.IO's WebSocket without permessage-deflate (no
 * compressor state kept per socket: sockets/io.ts says why).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const script = `console.log(${JSON.stringify('the board, '.repeat(400))});\n`;
const ASSET = '/assets/index-Ab3dE_9z.js';

beforeAll(async () => {
  t = await openTestDatabase();
  const webDist = await mkdtemp(path.join(tmpdir(), 'bke-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>BKE Online</title>');
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const file = path.join(webDist, ASSET);
  await writeFile(file, script);
  await writeFile(`${file}.gz`, gzipSync(script));
  await writeFile(`${file}.br`, brotliCompressSync(script));
  app = await buildApp({ db: t.db, webDist });
  base = await app.http.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const get = (url: string, encoding?: string) =>
  app.http.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('static assets', () => {
  it('sends the brotli copy to a browser that takes it, immutable for a year', async () => {
    const res = await get(ASSET, 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('the gzip copy to one that takes only gzip, the file itself to one that takes neither', async () => {
    const gz = await get(ASSET, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get(ASSET);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('index.html and unhashed files are revalidated on every load, with the security headers', async () => {
    for (const url of ['/', '/index.html', '/worlds/some-world', '/favicon.svg']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
    }
  });

  it('answers a missing asset or file with a 404 in the error shape, a page path with the app', async () => {
    for (const url of [
      '/assets/index-Zz9yX_8w.js',
      '/assets/gone.css?v=2',
      '/assets/',
      '/favicon.ico',
      '/robots.txt',
      '/worlds/some-world/map.png',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json().error.code, url).toBe('http/not_found');
    }
    const page = await get('/worlds/some-world');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>BKE Online</title>');
  });
});

describe('Socket.IO', () => {
  // No compression on the socket: zlib's state per connection cost about 200 KB of resident memory
  // for each idle player, and each message was compressed again for each socket.
  it('does not negotiate permessage-deflate on the WebSocket', async () => {
    const socket = connect(base, { transports: ['websocket'], extraHeaders: { origin: base } });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const ws = (socket.io.engine.transport as unknown as { ws: { extensions: string } }).ws;
      expect(ws.extensions).not.toMatch(/permessage-deflate/);
      expect(ws.extensions).toBe('');
    } finally {
      socket.close();
    }
  });
});
