/**
 * The next order of a world as a person would give it, read through a given hub (a test's second
 * hub stands for another server process): the seat the world waits for, its account, and an order
 * from that seat's legal orders that ends its part of the step.
 */
import type { WorldHub } from '../../src/worlds/hub.ts';
import { pickOrder } from './client.ts';

export async function nextOrder(hub: WorldHub, worldId: string) {
  const rt = await hub.get(worldId);
  if (!rt) throw new Error('no world');
  const playerId = rt.waitingFor()[0] ?? '';
  const seat = (await hub.seats(worldId)).find((s) => s.playerId === playerId);
  const legal = hub.engine.legalOrders(rt.state, playerId as never);
  const order = pickOrder(legal as Parameters<typeof pickOrder>[0], { done: true });
  if (!seat?.userId || !order) throw new Error(`nothing to play for ${playerId}`);
  return { playerId, userId: seat.userId, order, version: rt.version };
}
