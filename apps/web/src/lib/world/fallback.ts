/**
 * The safety net of the orders panel: any legal order the panel has no dedicated control for is
 * still offered, as a button described in words, so no decision the server lists is ever out of
 * reach (for instance an order the engine learnt after this client was built). The order is
 * sent exactly as the server listed it; the server judges it and a refusal comes back in words.
 */

/** Order types the panel or the map has a dedicated control for (OrdersPanel.svelte, RealmPlan.svelte, PersianArmy.svelte). */
const HANDLED_TYPES: ReadonlySet<string> = new Set([
  'chooseStart',
  'persianArmy',
  'combine',
  'split',
  'move',
  'seaCrossing',
  'placeEntryTribes',
  'disband',
  'pillage',
  'keepGroup',
  'removeUnits',
  'foundKingdom',
  'declareAbandon',
  'endPhase',
  'undo',
  'shipMove',
  'combatAttack',
  'combatRetreat',
  'combatExchangeLoss',
  'combatAdvance',
  'combatStop',
  'combatCapture',
  'combatEliteChoice',
  'combatReroll',
  'combatDone',
  'realmPlan',
  'realmUnits',
  'realmProvince',
  'realmCities',
  'realmCapital',
  'realmGarrisons',
  'realmTribute',
  'realmInterception',
  'realmBid',
  // Diplomacy.svelte: mercenaries (13.4) and captured leaders (13.6).
  'realmLeaseOffer',
  'realmLeaseAccept',
  'realmLeaseEnd',
  'realmMercenaryPillage',
  'realmRansomOffer',
  'realmRansomAccept',
  'realmExecute',
  'realmPrisonerMove',
]);

export type AnyOrder = { readonly type: string; readonly [field: string]: unknown };

/** The legal orders with no dedicated control, in the server's order. */
export function unhandledOrders(legal: readonly AnyOrder[]): AnyOrder[] {
  return legal.filter((o) => !HANDLED_TYPES.has(o.type));
}

/** "shipCapture" → "Ship capture". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface IdWords {
  /** A unit's label, or null when the id is not a unit on the map. */
  unit(id: string): string | null;
  /** A player's name, or null when the id is not a player. */
  player(id: string): string | null;
  /** An area's name (the id itself when unknown). */
  area(id: string): string;
}

function valueWords(v: unknown, ids: IdWords): string {
  if (v === null || v === undefined) return 'none';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return ids.unit(v) ?? ids.player(v) ?? ids.area(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => valueWords(x, ids)).join(', ') : 'none';
  if (typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${humanize(k).toLowerCase()} ${valueWords(x, ids)}`)
      .join(', ');
  return String(v);
}

/** An order in words: "Ship capture — ship: Galley in Mare Nostrum; by: Alaric". */
export function orderWords(o: AnyOrder, ids: IdWords): string {
  const fields = Object.entries(o).filter(([k]) => k !== 'type');
  const details = fields.map(([k, v]) => `${humanize(k).toLowerCase()}: ${valueWords(v, ids)}`).join('; ');
  return details ? `${humanize(o.type)} — ${details}` : humanize(o.type);
}
