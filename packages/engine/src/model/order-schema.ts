/** The wire schema of every order: the core's and the combat phase's (STYLE habit 4). */

import { z } from 'zod';
import type { CombatLegalOrder, CombatOrder } from '../combat/phase.ts';
import { COMBAT_ORDER_SCHEMAS } from '../combat/phase.ts';
import { NAVAL_ORDER_SCHEMAS, type NavalLegalOrder, type NavalOrder } from '../naval/movement.ts';
import { REALM_ORDER_SCHEMAS, type RealmLegalOrder, type RealmOrder } from '../realm/orders.ts';
import { type CoreLegalOrder, type CoreOrder, coreOrderSchemas } from './orders.ts';

export const orderSchema = z.discriminatedUnion('type', [
  ...coreOrderSchemas,
  ...COMBAT_ORDER_SCHEMAS,
  ...REALM_ORDER_SCHEMAS,
  ...NAVAL_ORDER_SCHEMAS,
]);

export type Order = CoreOrder | CombatOrder | RealmOrder | NavalOrder;
export type LegalOrder = CoreLegalOrder | CombatLegalOrder | RealmLegalOrder | NavalLegalOrder;

/** One schema per order type: parsing goes straight to it (much faster than trying the union). */
const SCHEMA_BY_TYPE = new Map<string, z.ZodType>(
  [...coreOrderSchemas, ...COMBAT_ORDER_SCHEMAS, ...REALM_ORDER_SCHEMAS, ...NAVAL_ORDER_SCHEMAS].map(
    (schema) => [schema.shape.type.value, schema],
  ),
);

/**
 * Orders that are their type alone (`endPhase`, `combatDone`, `combatStop`, `undo`: about 40% of a
 * game's orders). Each schema is a plain (stripping) object of one literal, so zod's answer for
 * any non-array object carrying such a type is `{ type }`; it is given without running zod.
 */
const TYPE_ONLY = new Set(
  [...SCHEMA_BY_TYPE]
    .filter(([, schema]) => {
      const def = (schema as z.ZodObject)._zod.def;
      return Object.keys(def.shape).length === 1 && def.catchall === undefined;
    })
    .map(([type]) => type),
);

/** Parse untrusted input (the server's socket, the CLI's files) into an order. */
export function parseOrder(raw: unknown): { ok: true; order: Order } | { ok: false; issues: string } {
  const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && TYPE_ONLY.has(type) && !Array.isArray(raw))
    return { ok: true, order: { type } as Order };
  const schema = typeof type === 'string' ? SCHEMA_BY_TYPE.get(type) : undefined;
  const r = (schema ?? orderSchema).safeParse(raw);
  return r.success ? { ok: true, order: r.data as Order } : { ok: false, issues: r.error.message };
}
