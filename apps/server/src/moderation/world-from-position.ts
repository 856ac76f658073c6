/**
 * A new world started from a position (docs/world-from-position.md): an admin pastes an analysis
 * board's shared link and names who plays each of the position's players. The link carries what a
 * spectator sees (model/position-link.ts); the parts a live world needs and a link never holds are
 * filled as the analysis board fills them (analysis/position-from-view.ts): the dice from the
 * world's own seed, no undo window, no sealed plans, bids or offers. The world then runs as any
 * other from that state: it is snapshot 0, its order log starts after it.
 *
 * The link is read here as the page reads it (apps/web/src/lib/analysis/share-link.ts): base64url
 * of the JSON deflated without a header, refused past the same sizes.
 */
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import {
  BOT_LEVEL_TEXT,
  type BotLevel,
  type GameState,
  openPosition,
  type PositionLink,
  RULES_VERSION,
} from '@bke/engine';
import type { DeadlineSettings, PositionSeat, WorldFromPosition } from '@bke/protocol';
import { afterCommit } from '../db/transaction.ts';
import { phaseSecondsOf } from '../worlds/hub.ts';
import { stepKeyOf } from '../worlds/runtime.ts';
import { writeSnapshot } from '../worlds/snapshots.ts';
import type { ModContext } from './context.ts';
import { type ModResult, refuse } from './errors.ts';

/** As the page: longer than any position's code, larger than any position's JSON. */
const MAX_CODE_CHARS = 400_000;
const MAX_POSITION_BYTES = 8 * 1024 * 1024;
/** A world made for a lesson or a puzzle is played at once: a day per phase unless told otherwise. */
const DEFAULT_DEADLINE: DeadlineSettings = { mode: 'correspondence', hoursPerPhase: 24 };

const unreadable = (message: string) =>
  refuse('moderation/position_refused', { position: { code: 'position/unreadable', message } });

/** The link's document: the code is what follows `#/analysis/` (or the whole text, pasted bare). */
function readPositionCode(text: string): { ok: true; value: unknown } | ReturnType<typeof unreadable> {
  const at = text.indexOf('#/analysis/');
  const code = at >= 0 ? text.slice(at + '#/analysis/'.length) : text;
  if (code.length === 0 || code.length > MAX_CODE_CHARS || !/^[A-Za-z0-9_-]+$/.test(code))
    return unreadable('the link is not written in the letters a position link uses');
  let json: string;
  try {
    json = inflateRawSync(Buffer.from(code, 'base64url'), { maxOutputLength: MAX_POSITION_BYTES }).toString();
  } catch {
    return unreadable('the link does not unpack (cut short, or larger than any position)');
  }
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch {
    return unreadable('the link does not hold JSON');
  }
}

interface Seated {
  playerId: string;
  userId: string | null;
  bot: BotLevel | null;
  name: string;
}

/**
 * Every player of the position still in the game gets exactly one seat, and every seat names one
 * of them; an account plays one seat at most. Accounts are looked up by name.
 */
async function seatsFor(
  ctx: ModContext,
  state: GameState,
  seats: readonly PositionSeat[],
): Promise<ModResult<{ seated: Seated[] }>> {
  const playing = state.players.filter((p) => p.status !== 'left').map((p) => p.id as string);
  const given = seats.map((s) => s.playerId);
  const missing = playing.filter((id) => !given.includes(id));
  const unknown = given.filter((id, i) => !playing.includes(id) || given.indexOf(id) !== i);
  const names = seats.flatMap((s) => ('username' in s ? [s.username.toLowerCase()] : []));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (missing.length > 0 || unknown.length > 0 || twice.length > 0)
    return refuse('moderation/position_seats', { missing, unknown, twice });
  const users = await ctx.db.prisma.user.findMany({
    where: { usernameKey: { in: names } },
    select: { id: true, username: true, usernameKey: true },
  });
  const absent = names.find((n) => !users.some((u) => u.usernameKey === n));
  if (absent) return refuse('world/no_such_player', { username: absent });
  let bots = 0;
  const seated = seats.map((s): Seated => {
    if ('username' in s) {
      const u = users.find((x) => x.usernameKey === s.username.toLowerCase());
      return { playerId: s.playerId, userId: u?.id ?? null, bot: null, name: u?.username ?? s.username };
    }
    bots += 1;
    return {
      playerId: s.playerId,
      userId: null,
      bot: s.bot,
      name: `${BOT_LEVEL_TEXT[s.bot].name} bot ${bots}`,
    };
  });
  return { ok: true, seated };
}

/** Reads the link, seats the position's players, and stores the new world with the position as its start. */
export async function worldFromPosition(
  ctx: ModContext,
  actorId: string,
  body: WorldFromPosition,
  now = new Date(),
): Promise<ModResult<{ params: Record<string, unknown>; worldId: string }>> {
  const read = readPositionCode(body.position);
  if (!read.ok) return read;
  const seed = body.seed ?? randomBytes(16).toString('hex');
  const opened = openPosition(ctx.hub.engine, read.value, seed);
  if (!opened.ok) return refuse('moderation/position_refused', { position: opened.error });
  const seats = await seatsFor(ctx, opened.value, body.seats);
  if (!seats.ok) return seats;
  const { seated } = seats;
  // The world plays under this site's rules from the position on; each player is called by the
  // account (or bot) now playing it, as a seat joined in the world would be. What is stored is
  // that position, so the world's start is rebuilt from it and the seed alone (world-start.ts).
  const doc = read.value as PositionLink;
  const start: PositionLink = {
    ...doc,
    position: {
      ...doc.position,
      // A world's version is the seq of its log's last order (worlds/store.ts): the count of the
      // game the position came from starts again at this world's first order.
      version: 0,
      rulesVersion: RULES_VERSION,
      players: doc.position.players.map((p) => {
        const s = seated.find((x) => x.playerId === p.id);
        return s ? { ...p, name: s.name } : p;
      }),
    },
  };
  const reopened = openPosition(ctx.hub.engine, start, seed);
  if (!reopened.ok) return refuse('moderation/position_refused', { position: reopened.error });
  const state = reopened.value;
  const deadline = body.deadline ?? DEFAULT_DEADLINE;
  const phaseSeconds = phaseSecondsOf(deadline);
  const stepKey = stepKeyOf(state, ctx.hub.engine.waitingFor(state));
  const world = await ctx.db.prisma.world.create({
    data: {
      name: body.name,
      status: 'running',
      // The position is kept with the seed: the world's start is rebuilt from both (world-start.ts).
      setup: {
        seed,
        options: state.options,
        rulesVersion: RULES_VERSION,
        deadline,
        maxPlayers: 6,
        position: JSON.parse(JSON.stringify(start)),
      },
      rulesVersion: RULES_VERSION,
      deadlineMode: deadline.mode,
      phaseSeconds,
      rated: false,
      stepKey,
      deadlineAt: stepKey === '' ? null : new Date(now.getTime() + phaseSeconds * 1000),
      createdById: actorId,
    },
  });
  const byPlayer = new Map(state.players.map((p) => [p.id as string, p]));
  await ctx.db.prisma.worldSeat.createMany({
    data: seated.map((s) => ({
      worldId: world.id,
      playerId: s.playerId,
      userId: s.userId,
      bot: s.bot,
      seat: byPlayer.get(s.playerId)?.seat ?? 0,
      colour: byPlayer.get(s.playerId)?.colour ?? 'red',
    })),
  });
  await writeSnapshot(ctx.db, world.id, 0, state, ctx.hub.engine.hash(state));
  // Once committed, the bots among the seats play when the world waits for them.
  afterCommit(ctx.db, () => {
    void ctx.hub
      .get(world.id)
      .then((rt) => rt && ctx.hub.events.emit('seatsChanged', rt))
      .catch(() => {});
  });
  return {
    ok: true,
    worldId: world.id,
    params: {
      name: body.name,
      turn: state.turn,
      seed,
      seats: seated.map((s) => ({ playerId: s.playerId, name: s.name, bot: s.bot })),
    },
  };
}
