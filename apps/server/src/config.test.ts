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
  });

  it('refuses nonsense with the variable named', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});
