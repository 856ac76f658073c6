/**
 * "Since you were last here": what happened in a world between a player's last visit and now, as
 * that player may see it (built on the server from the events the engine lets that seat see). Each
 * line names the moment it happened (the game turn and the order's seq), which the replay opens at.
 */
import { z } from 'zod';
import { recentEventSchema } from './socket.ts';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);
const moment = { turn: z.number().int().min(0), seq: z.number().int().min(0) };

const sinceLastLineSchema = z.discriminatedUnion('kind', [
  /** A battle the player fought, as attacker or defender (7.1 combat). */
  z.object({
    kind: z.literal('battle'),
    ...moment,
    role: z.enum(['attacker', 'defender']),
    /** The other side: a player, or null for a neutral garrison. */
    against: id.nullable(),
    area: id,
    odds: z.string().max(20),
    result: z.string().max(20),
  }),
  /** Units of the player's that a battle or a removal took off the board. */
  z.object({ kind: z.literal('loss'), ...moment, units: z.number().int().min(1), area: id.nullable() }),
  /** A stage change of any player: kingdom, empire, the end of a cycle (collapse, elimination…), a new cycle. */
  z.object({
    kind: z.literal('stage'),
    ...moment,
    player: id,
    stage: z.enum(['barbarian', 'kingdom', 'empire', 'ended']),
    reason: z.string().max(20).nullable(),
  }),
  /** Victory points the player won (positive) or lost (negative). */
  z.object({ kind: z.literal('vp'), ...moment, vp: z.number().int(), total: z.number().int() }),
  z.object({ kind: z.literal('joined'), ...moment, player: id }),
  z.object({ kind: z.literal('left'), ...moment, player: id }),
  /** A chat line addressed to the player alone (the seq is the world's version when it was sent). */
  z.object({ kind: z.literal('chat'), ...moment, from: id.nullable(), body: z.string().max(2000) }),
]);
export type SinceLastLine = z.infer<typeof sinceLastLineSchema>;

export const sinceLastSchema = z.object({
  /** The seat the summary is for. */
  player: id,
  /** The version the player had seen up to (null: the summary starts at the seat's joining). */
  fromVersion: z.number().int().min(0).nullable(),
  /** The world's version the summary runs to: send it back once the player has seen it. */
  toVersion: z.number().int().min(0),
  fromTurn: z.number().int().min(0),
  toTurn: z.number().int().min(0),
  /** Game turns that began since the last visit. */
  turnsPassed: z.number().int().min(0),
  /** VP won and lost in all, since the last visit. */
  vpWon: z.number().int().min(0),
  vpLost: z.number().int().min(0),
  /** The lines, oldest first; the oldest are dropped beyond the cap and counted in `more`. */
  lines: z.array(sinceLastLineSchema),
  more: z.number().int().min(0),
});
export type SinceLast = z.infer<typeof sinceLastSchema>;

export const sinceLastSeenSchema = z.strictObject({ version: z.number().int().min(0).max(2_000_000_000) });
export const sinceLastSeenResponseSchema = z.object({ seenVersion: z.number().int().min(0) });

/** A page of the History further back: the events before order `before` the caller may see. */
export const historyPageQuerySchema = z.strictObject({
  before: z.coerce.number().int().min(1).max(2_000_000_000),
});
export const historyPageSchema = z.object({
  /** Oldest first, on the play as it now stands (rollbacks and undos applied). */
  events: z.array(recentEventSchema),
  /** Whether there are earlier events still. */
  more: z.boolean(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;
