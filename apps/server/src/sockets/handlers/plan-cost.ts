/** `world/planCost`: what a seat's economic plan would cost, priced by the engine, for that seat only. */
import { type Ack, type PlanCostResult, planCostRequestSchema } from '@bke/protocol';
import { planCost as priced } from '../../worlds/plan-cost.ts';
import { handler, refuse } from '../context.ts';
import { rights } from '../rights.ts';

export const planCost = handler({
  event: 'world/planCost',
  schema: planCostRequestSchema,
  async handle(ctx, socket, msg) {
    if (!socket.data.worlds.has(msg.worldId)) return refuse('world/not_subscribed');
    if (!socket.data.worlds.get(msg.worldId)) return refuse('auth/forbidden', { reason: 'spectator' });
    const now = await rights(ctx, socket, msg.worldId);
    if ('ok' in now) return now;
    const { playerId } = now;
    if (!playerId) return refuse('auth/forbidden', { reason: 'spectator' });
    const rt = await ctx.hub.get(msg.worldId);
    if (!rt) return refuse('world/not_found');
    const r = priced(ctx.hub.engine, rt.state, playerId, msg.plan);
    if (!r.ok) {
      const { code, ...params } = r.error;
      return refuse(code, params);
    }
    const answer: Ack<PlanCostResult> = { ok: true, cost: r.cost };
    return answer;
  },
});
