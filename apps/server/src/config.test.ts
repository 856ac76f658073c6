import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('has working defaults: embedded database, port 3000, no proxy trusted', () => {
    const c = loadConfig({});
    expect(c.database.kind).toBe('embedded');
    expect(c.port).toBe(3000);
    expect(c.trustProxy).toBe(false);
  });

  it('reads TRUST_PROXY as a switch, a hop count or a list of proxies', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).toBe('loopback,uniquelocal');
  });

  it('reads every limit from its own variable, defaults otherwise', () => {
    const c = loadConfig({
      CHAT_LINES_PER_MINUTE: '7',
      SOCKET_EVENTS_PER_SECOND: '2.5',
      SOCKETS_PER_ACCOUNT: '4',
    });
    expect(c.limits.chatPerMinute).toBe(7);
    expect(c.limits.socketEvents).toEqual({ burst: 40, perSecond: 2.5 });
    expect(c.limits.socketsPerAccount).toBe(4);
    expect(c.limits.worldsPerDay).toBe(10);
    expect(() => loadConfig({ CHAT_LINES_PER_MINUTE: '0' })).toThrow(/CHAT_LINES_PER_MINUTE/);
  });

  it('unloads worlds idle for ten minutes unless WORLD_IDLE_MINUTES says otherwise (0: never)', () => {
    expect(loadConfig({}).worldIdleMs).toBe(600_000);
    expect(loadConfig({ WORLD_IDLE_MINUTES: '2.5' }).worldIdleMs).toBe(150_000);
    expect(loadConfig({ WORLD_IDLE_MINUTES: '0' }).worldIdleMs).toBe(0);
    expect(() => loadConfig({ WORLD_IDLE_MINUTES: '-1' })).toThrow(/WORLD_IDLE_MINUTES/);
  });

  it('refuses nonsense with the variable named', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it("sizes the PostgreSQL pool from DATABASE_POOL_MAX, 10 by default, at least 2 (the adapter's LISTEN holds one)", () => {
    const url = 'postgresql://u@h:5432/d';
    expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({ kind: 'postgres', url, poolSize: 10 });
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: '4' }).database).toMatchObject({
      kind: 'postgres',
      url,
      poolSize: 4,
    });
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: '1' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: 'many' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('bounds how long a PostgreSQL connection may take to open from DATABASE_CONNECT_TIMEOUT_MS, 5 s by default', () => {
    const url = 'postgresql://u@h:5432/d';
    expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({ connectTimeoutMs: 5000 });
    expect(loadConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '750' }).database).toMatchObject({
      connectTimeoutMs: 750,
    });
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS/,
    );
  });

  it('treats an empty variable as unset', () => {
    const c = loadConfig({ DATABASE_URL: '', PORT: '', TRUST_PROXY: '', LOG_LEVEL: '', METRICS_PORT: '' });
    expect(c.database.kind).toBe('embedded');
    expect(c.port).toBe(3000);
    expect(c.trustProxy).toBe(false);
    expect(c.logLevel).toBe('info');
    expect(c.metrics).toBeNull();
  });

  it('clusters over PostgreSQL by default with DATABASE_URL, never on the embedded database', () => {
    const url = 'postgresql://u@db:5432/bke';
    expect(loadConfig({ DATABASE_URL: url }).cluster).toEqual({ kind: 'postgres' });
    expect(loadConfig({}).cluster).toEqual({ kind: 'none' });
    expect(loadConfig({ DATABASE_URL: url, CLUSTER_ADAPTER: 'none' }).cluster).toEqual({ kind: 'none' });
    expect(
      loadConfig({ DATABASE_URL: url, CLUSTER_ADAPTER: 'redis', REDIS_URL: 'redis://r:6379' }).cluster,
    ).toEqual({ kind: 'redis', url: 'redis://r:6379', stream: 'bke' });
    expect(() => loadConfig({ CLUSTER_ADAPTER: 'postgres' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, CLUSTER_ADAPTER: 'redis' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, REDIS_URL: 'http://r' })).toThrow(/REDIS_URL/);
  });

  it('migrates at start unless told not to; metrics on a port only when asked', () => {
    expect(loadConfig({}).migrateOnStart).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: '0' }).migrateOnStart).toBe(false);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
  });

  it('takes the link key from LINK_KEY when given (base64url, 32 bytes or more), else leaves it to the database', () => {
    expect(loadConfig({}).mail.linkKey).toBeNull();
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({ LINK_KEY: key.toString('base64url') }).mail.linkKey).toEqual(key);
    expect(() => loadConfig({ LINK_KEY: 'short' })).toThrow(/LINK_KEY/);
    expect(() => loadConfig({ LINK_KEY: `${'a'.repeat(42)}+` })).toThrow(/LINK_KEY/);
    expect(() => loadConfig({ LINK_KEY: `${'a'.repeat(43)}\n` })).toThrow(/LINK_KEY/);
  });

  it('logs JSON lines in production, whatever the terminal', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).logPretty).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', LOG_PRETTY: '1' }).logPretty).toBe(true);
  });
});
