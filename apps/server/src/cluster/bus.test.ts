import { describe, expect, it } from 'vitest';
import { parseBusPayload } from './bus.ts';

const W = '0b7c3d1e-8f4a-4c2b-9d6e-1a2b3c4d5e6f';

describe('bus payloads from other processes', () => {
  it('reads a message from another process', () => {
    expect(parseBusPayload(JSON.stringify({ o: 'bke-b', k: 'world', w: W }), 'bke-a')).toEqual({
      k: 'world',
      w: W,
    });
    expect(parseBusPayload(JSON.stringify({ o: 'bke-b', k: 'chat', w: W, id: '42' }), 'bke-a')).toEqual({
      k: 'chat',
      w: W,
      id: '42',
    });
  });

  it('ignores what this process sent itself', () => {
    expect(parseBusPayload(JSON.stringify({ o: 'bke-a', k: 'world', w: W }), 'bke-a')).toBeNull();
  });

  it('refuses anything else: not JSON, no sender, an unknown kind, bad fields', () => {
    for (const bad of [
      'not json',
      JSON.stringify({ k: 'world', w: W }),
      JSON.stringify({ o: 'bke-b', k: 'drop tables' }),
      JSON.stringify({ o: 'bke-b', k: 'world', w: 'not-a-uuid' }),
      JSON.stringify({ o: 'bke-b', k: 'chat', w: W, id: '1; DELETE' }),
    ])
      expect(parseBusPayload(bad, 'bke-a')).toBe('invalid');
  });
});
