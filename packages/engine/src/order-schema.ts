/** The wire schema of every order: the core's and the combat phase's (STYLE habit 4). */
import { z } from 'zod';
import { type CoreLegalOrder, type CoreOrder, coreOrderSchemas } from './orders.ts';
import type { CombatLegalOrder, CombatOrder } from './phases/combat-seam.ts';
import { COMBAT_ORDER_SCHEMAS } from './phases/combat-seam.ts';

export const orderSchema = z.discriminatedUnion('type', [...coreOrderSchemas, ...COMBAT_ORDER_SCHEMAS]);

export type Order = CoreOrder | CombatOrder;
export type LegalOrder = CoreLegalOrder | CombatLegalOrder;

/** Parse untrusted input (the server's socket, the CLI's files) into an order. */
export function parseOrder(raw: unknown): { ok: true; order: Order } | { ok: false; issues: string } {
  const r = orderSchema.safeParse(raw);
  return r.success ? { ok: true, order: r.data as Order } : { ok: false, issues: r.error.message };
}
