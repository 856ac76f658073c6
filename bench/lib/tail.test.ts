/** BENCH_TAIL's report: which components, game turns and orders the slowest 1 % of a step had. */
import { describe, expect, it } from 'vitest';
import { type SentOrder, type ServerTimes, tailReport } from './tail.ts';

describe('the slowest orders report', () => {
  it('tells the game turns ended and the order types among the slowest, against all of the step', () => {
    const server: ServerTimes = { orders: {}, blocks: [], gcs: [] };
    const sent: SentOrder[] = [];
    for (let i = 0; i < 200; i++) {
      const key = `w:${i}`;
      // Two slow orders, one of which ended a turn; three turn ends in the step in all.
      const ms = i === 7 || i === 8 ? 50 : 2;
      sent.push({ key, due: i * 10, sent: i * 10, answered: i * 10 + ms });
      server.orders[key] = {
        hub: i * 10 + 0.5,
        type: i === 7 ? 'endPhase' : 'move',
        turnEnd: i === 7 || i === 100 || i === 150,
      };
    }
    const lines = tailReport(server, sent);
    expect(lines[0]).toContain('slowest 1 % of orders (2,');
    expect(lines).toContain('    game turns ended by them: 1 of 2 (by all orders of the step: 3 of 200)');
    expect(lines).toContain('    their orders: endPhase 1, move 1');
  });
});
