/**
 * A world as the lobby shows it (`WorldSummary`; `FinishedWorld` for a closed one): its row and
 * seats from the database, the rest from its game state, read as a digest (worlds/digests.ts).
 *
 * The lists read the rows, heads and seats of all their worlds in a few statements, however many
 * worlds they hold, and each world's game state from the runtime this process holds (without
 * marking it used: a glance at the lobby is no reason to keep a world in memory), else from the
 * digest the hub kept when it let the world go, while the stored head is still the one the digest
 * was taken at, else from the digest stored in the database when a process (maybe this one before
 * a restart) let it go. Only a world no process let go of, or one moved since (by another
 * process, or a moderator), is loaded, as any use loads it; it goes again once idle.
 */
import type { Standing } from '@bke/engine';
import type {
  DeadlineSettings,
  FinalStanding,
  FinishedWorld,
  WorldAccess,
  WorldSummary,
} from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { type Viewer, visibleTo } from '../worlds/access.ts';
import { digestOf, sameHead, type WorldDigest } from '../worlds/digests.ts';
import type { WorldHub } from '../worlds/hub.ts';
import { standingRemovalsSql } from '../worlds/removals.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { readHeads, type WorldHead } from '../worlds/store.ts';
import { readStoredDigests } from '../worlds/stored-digests.ts';

/** The newest running worlds the lobby lists, and the newest closed ones. */
const LISTED_WORLDS = 200;
const LISTED_FINISHED_WORLDS = 50;

/** A `worlds` row with its creator's name (`WORLD_INCLUDE`). */
interface WorldRow {
  id: string;
  name: string;
  setup: unknown;
  createdAt: Date;
  updatedAt: Date;
  phaseSeconds: number;
  earlyResolution: boolean;
  maxPlayers: number;
  access: string;
  reservedSeats: number;
  spectators: boolean;
  createdBy: { username: string };
}

/** A `world_seats` row with its player's name (`readSeats`). */
interface SeatWithUser {
  worldId: string;
  playerId: string;
  userId: string | null;
  user: { username: string; botOwnerId?: string | null; botOwner?: { username: string } | null } | null;
  bot: string | null;
  standIn: string | null;
  absent: boolean;
  seat: number;
  colour: string;
  missedTurns: number;
  leftAt: Date | null;
  /** A moderator removed the account from the world and none allowed it back since. */
  removed?: boolean;
  /** A moderator's rollback to the start of this turn freed the seat (moderation/rollback-seats.ts). */
  unseatedAtTurn?: number;
}

const WORLD_INCLUDE = { createdBy: { select: { username: true } } } as const;

/**
 * The seats of the worlds `worldIds` names, in joining order; the player id settles seats that
 * joined within the same millisecond (a world created with its bots), so a world lists its seats
 * in one order whichever query read them.
 */
async function readSeats(db: Database, worldIds: string[]): Promise<SeatWithUser[]> {
  const [seats, marks] = await Promise.all([
    db.prisma.worldSeat.findMany({
      where: worldIds.length === 1 ? { worldId: worldIds[0] } : { worldId: { in: worldIds } },
      orderBy: [{ joinedAt: 'asc' }, { playerId: 'asc' }],
      include: {
        user: { select: { username: true, botOwnerId: true, botOwner: { select: { username: true } } } },
      },
    }),
    // One statement for what moderators did to seats: the removals still standing
    // (worlds/removals.ts), keyed by account; and the
    // seats a rollback freed (its audit entry lists them), keyed by player, for a player who was not
    // there to be told: the world's page says so on their next visit.
    db.sql<{ kind: 'removed' | 'unseated'; world_id: string; key: string; turn: number | null }>(
      `SELECT 'removed' AS kind, world_id, target_user_id::text AS key, NULL::int AS turn
         FROM (${standingRemovalsSql('$1')}) removed
       UNION ALL
       SELECT 'unseated', world_id, player_id, turn FROM (
         SELECT DISTINCT ON (a.world_id, u->>'playerId') a.world_id, u->>'playerId' AS player_id,
                (a.params->>'turn')::int AS turn
           FROM moderation_actions a, jsonb_array_elements(COALESCE(a.params->'unseated', '[]'::jsonb)) u
          WHERE a.world_id = ANY($1::uuid[]) AND a.action = 'world.rollback'
          ORDER BY a.world_id, u->>'playerId', a.id DESC) freed`,
      [worldIds],
    ),
  ]);
  const removed = new Set(marks.filter((r) => r.kind === 'removed').map((r) => `${r.world_id} ${r.key}`));
  const unseated = new Map(
    marks.flatMap((r) =>
      r.kind === 'unseated' && r.turn !== null ? [[`${r.world_id} ${r.key}`, r.turn]] : [],
    ),
  );
  return seats.map((x) => {
    const turn = unseated.get(`${x.worldId} ${x.playerId}`);
    return {
      ...x,
      removed: removed.has(`${x.worldId} ${x.userId}`),
      ...(turn !== undefined ? { unseatedAtTurn: turn } : {}),
    };
  });
}

type SeatView = WorldSummary['seats'][number];

/** The summary of the world of row `w` and `seats`, whose game state `d` describes. */
function summaryOf(w: WorldRow, seats: readonly SeatWithUser[], d: WorldDigest): WorldSummary {
  const setup = w.setup as { deadline?: DeadlineSettings };
  return {
    id: w.id,
    name: w.name,
    status: d.head.status,
    createdBy: w.createdBy.username,
    createdAt: w.createdAt.toISOString(),
    deadline: setup.deadline ?? { mode: 'live', minutesPerPhase: w.phaseSeconds / 60 },
    earlyResolution: w.earlyResolution,
    maxPlayers: w.maxPlayers,
    access: w.access as WorldAccess,
    reservedSeats: w.reservedSeats,
    spectators: w.spectators,
    victory: d.victory,
    version: d.head.version,
    turn: d.turn,
    step: d.step,
    deadlineAt: d.head.deadlineAt?.toISOString() ?? null,
    waitingFor: d.waitingFor,
    seats: seats.map((x) => ({
      playerId: x.playerId,
      userId: x.userId,
      // A bot's name is the one it joined with.
      username: x.user?.username ?? d.players.find((p) => p.id === x.playerId)?.name ?? x.playerId,
      bot: (x.bot as SeatView['bot']) ?? null,
      ...(x.user?.botOwnerId
        ? { program: true as const, ...(x.user.botOwner ? { programOwner: x.user.botOwner.username } : {}) }
        : {}),
      standIn: x.absent ? ((x.standIn as SeatView['standIn']) ?? null) : null,
      seat: x.seat,
      colour: x.colour as SeatView['colour'],
      missedTurns: x.missedTurns,
      left: x.leftAt !== null,
      removed: x.leftAt !== null && x.removed === true,
      ...(x.leftAt !== null && x.unseatedAtTurn !== undefined ? { unseatedAtTurn: x.unseatedAtTurn } : {}),
      away: x.absent,
    })),
  };
}

/** The engine's standings of a closed world, each player named as its seat shows it. */
function finalStandings(summary: WorldSummary, d: WorldDigest, standings: Standing[]): FinalStanding[] {
  const seatOf = new Map(summary.seats.map((s) => [s.playerId, s]));
  return standings.flatMap((st) => {
    const p = d.players.find((x) => x.id === st.player);
    if (!p) return [];
    const seat = seatOf.get(st.player);
    const { player: _p, ...rest } = st;
    return [
      {
        playerId: st.player,
        name: seat?.username ?? p.name,
        colour: p.colour,
        bot: !!seat?.bot || seat?.program === true,
        ...rest,
      },
    ];
  });
}

/** The summary of one world this process holds (after a create, a join, a leave, or its page). */
export async function summarize(db: Database, rt: WorldRuntime): Promise<WorldSummary> {
  const [w, seats] = await Promise.all([
    db.prisma.world.findUniqueOrThrow({ where: { id: rt.id }, include: WORLD_INCLUDE }),
    readSeats(db, [rt.id]),
  ]);
  return summaryOf(w, seats, digestOf(rt, false));
}

/**
 * What each world's game state shows, from what costs least: the runtime held here, the digest of
 * a world let go of that still matches its head, kept in memory or else stored when a process let
 * it go (a process that started afresh holds none in memory), or else the world loaded. Worlds
 * that are no worlds are left out.
 */
async function statesOf(
  db: Database,
  hub: WorldHub,
  worldIds: readonly string[],
  heads: Map<string, WorldHead>,
  withStandings: boolean,
): Promise<Map<string, WorldDigest>> {
  const usable = (d: WorldDigest | undefined, head: WorldHead | undefined): d is WorldDigest =>
    !!d && !!head && sameHead(d.head, head) && (!!d.standings || !withStandings);
  const out = new Map<string, WorldDigest>();
  const missing: string[] = [];
  for (const id of worldIds) {
    const held = hub.peek(id);
    const head = heads.get(id);
    const kept = head ? hub.digests.current(id, head) : undefined;
    if (held) out.set(id, digestOf(held, withStandings));
    else if (usable(kept, head)) out.set(id, kept);
    else missing.push(id);
  }
  // Asked only for what memory did not answer: none at all once this process has let go of them.
  const stored = await readStoredDigests(db, missing);
  for (const id of missing) {
    const d = stored.get(id);
    if (usable(d, heads.get(id)) && !hub.peek(id)) {
      hub.digests.set(id, d);
      out.set(id, d);
      continue;
    }
    const rt = await hub.get(id);
    if (rt) out.set(id, digestOf(rt, withStandings));
  }
  return out;
}

/**
 * The lobby's worlds that `query` picks, with what their game states show (`statesOf`) and their
 * seats, each read for all of them at once; `seatsOf` has an entry (maybe empty) for every row.
 */
async function readListed(
  db: Database,
  hub: WorldHub,
  query: Pick<Prisma.WorldFindManyArgs, 'where' | 'orderBy' | 'take'>,
  withStandings: boolean,
): Promise<{ rows: WorldRow[]; states: Map<string, WorldDigest>; seatsOf: Map<string, SeatWithUser[]> }> {
  const rows = await db.prisma.world.findMany({ ...query, include: WORLD_INCLUDE });
  const ids = rows.map((w) => w.id);
  const [heads, seats] = await Promise.all([readHeads(db, ids), readSeats(db, ids)]);
  const seatsOf = new Map<string, SeatWithUser[]>(ids.map((id) => [id, []]));
  for (const s of seats) seatsOf.get(s.worldId)?.push(s);
  return { rows, states: await statesOf(db, hub, ids, heads, withStandings), seatsOf };
}

/** The lobby's running worlds (every status but closed) that `viewer` may see, newest first. */
export async function listWorlds(db: Database, hub: WorldHub, viewer: Viewer): Promise<WorldSummary[]> {
  const { rows, states, seatsOf } = await readListed(
    db,
    hub,
    {
      where: { AND: [{ status: { not: 'closed' } }, visibleTo(viewer)] },
      orderBy: { createdAt: 'desc' },
      take: LISTED_WORLDS,
    },
    false,
  );
  const worlds: WorldSummary[] = [];
  for (const w of rows) {
    const d = states.get(w.id);
    if (d) worlds.push(summaryOf(w, seatsOf.get(w.id) ?? [], d));
  }
  return worlds;
}

/**
 * The lobby's closed worlds that `viewer` may see, the last closed first, with their final standings (the engine's, from
 * the state the world closed with).
 */
export async function listFinishedWorlds(
  db: Database,
  hub: WorldHub,
  viewer: Viewer,
): Promise<FinishedWorld[]> {
  const { rows, states, seatsOf } = await readListed(
    db,
    hub,
    {
      where: { AND: [{ status: 'closed' }, visibleTo(viewer)] },
      orderBy: { updatedAt: 'desc' },
      take: LISTED_FINISHED_WORLDS,
    },
    true,
  );
  const worlds: FinishedWorld[] = [];
  for (const w of rows) {
    const d = states.get(w.id);
    if (!d?.standings) continue;
    const summary = summaryOf(w, seatsOf.get(w.id) ?? [], d);
    worlds.push({
      ...summary,
      closedAt: w.updatedAt.toISOString(),
      standings: finalStandings(summary, d, d.standings),
    });
  }
  return worlds;
}
