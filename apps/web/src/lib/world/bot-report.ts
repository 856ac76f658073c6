/**
 * "What a bot did for me" in the History's words: each order a stand-in gave, told by the events
 * it produced as the player's own view has them ("Ana moved a tribe to Dacia."), under the turn it
 * was given in. An order that changed nothing the History tells (ending a phase, say) is named by
 * what it was, never by the engine's ids.
 */
import type { BotOrder } from '@bke/protocol';
import { eventWords } from '../words.ts';
import { humanize } from './fallback.ts';
import type { Names } from './history.ts';

/** What the report reads of a stand-in's order (the protocol's `BotOrder`, without its time). */
export type BotOrderRow = Pick<BotOrder, 'seq' | 'turn' | 'bot' | 'order' | 'events'>;

export interface BotReportLine {
  readonly seq: number;
  readonly turn: number;
  readonly bot: BotOrder['bot'];
  readonly text: string;
}

/** What the orders named by their type alone were, when their events say nothing. */
const ORDER_WORDS: Readonly<Record<string, string>> = {
  endPhase: 'Ended the phase.',
  combatDone: 'Finished the combat.',
  combatStop: 'Stopped attacking.',
  keepGroup: 'Kept a group together.',
  realmPlan: "Gave the realm's plan.",
};

export function botReport(rows: readonly BotOrderRow[], names: Names): BotReportLine[] {
  return rows.map((r) => {
    const said = r.events.map((e) => eventWords(e, names)).filter((s): s is string => s !== null);
    const text = said.length ? said.join(' ') : (ORDER_WORDS[r.order.type] ?? `${humanize(r.order.type)}.`);
    return { seq: r.seq, turn: r.turn, bot: r.bot, text };
  });
}
