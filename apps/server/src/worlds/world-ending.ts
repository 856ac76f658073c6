/**
 * Worlds with an end (14.3.1: "game length set in advance, or play until a set time"; the decision
 * in docs/rules-decisions.md, "A world's end"). After a commit that finished the chosen last turn,
 * or a turn after the chosen date, the process that made it gives the engine's `endWorld` order,
 * closes the world and records its final table and the rating changes, all in one transaction.
 * Another process doing the same at the same moment fails on the log's next sequence number, and
 * the result's key would refuse it anyway (ratings/record-result.ts): the end and the ratings
 * happen once.
 */
import { botLevelFrom, type Standing, standingsOf } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { afterCommit, inTransaction } from '../db/transaction.ts';
import { type ResultSeat, rankedTable, type TableEntry } from '../ratings/ranked-table.ts';
import { recordRatedResult } from '../ratings/record-result.ts';
import type { WorldRuntime } from './runtime.ts';
import { lockWorld } from './store.ts';
import type { WorldEvents } from './world-events.ts';

interface Ending {
  until: 'turn' | 'date';
  endTurn: number | null;
  endAt: Date | null;
  rated: boolean;
}

type Reason = 'turnLimit' | 'date';

/** Why the world should end now, or null. Turn N is over once the game is in turn N+1. */
function dueReason(e: Ending, rt: WorldRuntime, turnEndedSince: boolean, now: Date): Reason | null {
  if (e.until === 'turn' && e.endTurn !== null && rt.state.turn > e.endTurn) return 'turnLimit';
  if (e.until === 'date' && e.endAt !== null && now >= e.endAt && turnEndedSince) return 'date';
  return null;
}

/** The final table's seats: every seat that held a position, with its standing and who played it. */
async function resultSeats(db: Database, worldId: string, standings: Standing[]): Promise<ResultSeat[]> {
  const seats = await db.prisma.worldSeat.findMany({ where: { worldId } });
  const bySeat = new Map(seats.map((s) => [s.playerId, s]));
  return standings
    .filter((s) => s.turnsPlayed > 0)
    .map((s) => {
      const seat = bySeat.get(s.player);
      return {
        playerId: s.player,
        userId: seat?.userId ?? null,
        bot: seat?.userId ? null : botLevelFrom(seat?.bot),
        bestCycleVp: s.bestCycle,
        totalVp: s.totalVp,
        turnsPlayed: s.turnsPlayed,
      };
    });
}

export class WorldEndings {
  /** Each world's ending as created (it never changes), read once per world held here. */
  private readonly endings = new Map<string, Promise<Ending | null>>();
  /**
   * The endings read so far, to look at without waiting: an open-ended world (most of them) then
   * costs its commits nothing here, and a world that ends at a turn is queued only once it is due.
   */
  private readonly known = new Map<string, Ending | null>();

  constructor(
    private readonly db: Database,
    private readonly events: WorldEvents,
    private readonly publish: (worldId: string) => void,
    private readonly log: (msg: string, data?: object) => void,
  ) {
    events.on('committed', (rt, from) => this.check(rt, from));
    events.on('unloaded', (worldId) => {
      this.endings.delete(worldId);
      this.known.delete(worldId);
    });
  }

  private endingOf(worldId: string): Promise<Ending | null> {
    let e: Promise<Ending | null> | undefined = this.endings.get(worldId);
    if (!e) {
      e = this.db.prisma.world
        .findUnique({
          where: { id: worldId },
          select: { endUntil: true, endTurn: true, endAt: true, rated: true },
        })
        .then((w): Ending | null =>
          w && (w.endUntil === 'turn' || w.endUntil === 'date')
            ? { until: w.endUntil, endTurn: w.endTurn, endAt: w.endAt, rated: w.rated }
            : null,
        )
        .then(
          (ending): Ending | null => {
            this.known.set(worldId, ending);
            return ending;
          },
          (err: unknown) => {
            // A failed read is asked again at the next commit, not kept.
            this.endings.delete(worldId);
            throw err;
          },
        );
      this.endings.set(worldId, e);
    }
    return e;
  }

  private check(rt: WorldRuntime, from: number): void {
    if (rt.settings.status === 'closed') return;
    if (this.known.has(rt.id)) {
      const known = this.known.get(rt.id);
      if (!known) return;
      if (known.until === 'turn' && dueReason(known, rt, false, new Date()) === null) return;
    }
    // Queued at once, like the other listeners of a commit, so that `rt.settled()` covers it.
    void rt
      .run(async () => {
        const ending = await this.endingOf(rt.id);
        if (!ending || rt.settings.status === 'closed') return;
        const turnEnded = ending.until === 'date' ? await this.turnStartedAfter(rt.id, from) : false;
        const reason = dueReason(ending, rt, turnEnded, new Date());
        if (reason) await this.end(rt, ending, reason);
      })
      .catch((e) => this.log('ending a world failed', { worldId: rt.id, err: String(e) }));
  }

  /** Whether an order after `from` began a game turn (the log's turn starts, kept by a trigger). */
  private async turnStartedAfter(worldId: string, from: number): Promise<boolean> {
    const n = await this.db.prisma.worldTurnStart.count({ where: { worldId, seq: { gt: from } } });
    return n > 0;
  }

  private async end(rt: WorldRuntime, ending: Ending, reason: Reason): Promise<void> {
    const ended = await inTransaction(this.db, async (tx) => {
      await lockWorld(tx, rt.id);
      const r = await rt.commit(
        [{ actor: 'system', userId: null, kind: 'system', order: { type: 'endWorld', reason } }],
        new Date(),
        { db: tx, allowPaused: true },
      );
      if (!r.ok) return false;
      await tx.prisma.world.update({
        where: { id: rt.id },
        data: { status: 'closed', deadlineAt: null, deadlineClaimedUntil: null, pausedRemainingMs: null },
      });
      rt.head = { ...rt.head, status: 'closed', deadlineAt: null };
      rt.settings = { ...rt.settings, status: 'closed' };
      const victory = rt.state.options.victory;
      const table: TableEntry[] = rankedTable(await resultSeats(tx, rt.id, standingsOf(rt.state)), victory);
      await recordRatedResult(tx, {
        worldId: rt.id,
        resultKey: 'final',
        victory,
        table,
        rated: ending.rated,
      });
      afterCommit(tx, () => this.events.emit('status', rt));
      return true;
    });
    if (ended) this.publish(rt.id);
  }
}
