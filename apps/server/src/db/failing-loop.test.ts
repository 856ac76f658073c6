import { describe, expect, it } from 'vitest';
import { failingLoop, tickOf } from './failing-loop.ts';

describe('a background loop while the database is away', () => {
  it('logs its first failure and its return, once each, not every tick', async () => {
    const lines: string[] = [];
    const loop = failingLoop('mail sender', (msg) => lines.push(msg));
    let up = true;
    const tick = async () => {
      if (!up) throw new Error('connection refused');
    };
    await tickOf(loop, tick);
    up = false;
    for (let i = 0; i < 5; i++) await tickOf(loop, tick);
    up = true;
    await tickOf(loop, tick);
    await tickOf(loop, tick);
    expect(lines).toEqual(['mail sender failed; quiet until it works again', 'mail sender works again']);
  });
});
