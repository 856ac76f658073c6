/**
 * World controls: pause and resume (the deadline's remaining time is frozen and given back),
 * extend or shorten the current deadline, resolve the current step now, change the deadline
 * settings, close a world. Each runs inside the world's serialized queue, after catching up.
 */
import type { DeadlineSettings } from '@bke/protocol';
import { afterCommit } from '../db/transaction.ts';
import { phaseSecondsOf } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import type { ModContext } from './context.ts';
import { writeHead } from './context.ts';
import { type ModResult, refuse } from './errors.ts';

type Params = { params: Record<string, unknown> };

/**
 * Runs `fn` in the world's queue after a catch-up; unknown worlds are refused. An action the route
 * already runs inside the world's queue (`ctx.world`) runs at once.
 */
export async function inWorld<T extends object>(
  ctx: ModContext,
  worldId: string,
  fn: (rt: WorldRuntime) => Promise<ModResult<T>>,
): Promise<ModResult<T>> {
  if (ctx.world?.id === worldId) return fn(ctx.world);
  const rt = await ctx.hub.get(worldId);
  if (!rt) return refuse('world/not_found');
  return rt.run(async () => {
    await rt.catchUp();
    return fn(rt);
  });
}

/** The world's sockets get its new status once the change is committed. */
const tellStatus = (ctx: ModContext, rt: WorldRuntime) =>
  afterCommit(ctx.db, () => ctx.hub.events.emit('status', rt));

const stale = (rt: WorldRuntime) => refuse('sync/stale', { version: rt.version });
const iso = (d: Date | null) => d?.toISOString() ?? null;

export function pauseWorld(ctx: ModContext, worldId: string, reason: string, now = new Date()) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    if (rt.settings.status === 'paused') return refuse('moderation/already_paused');
    const due = rt.head.deadlineAt;
    const remaining = due ? Math.max(0, due.getTime() - now.getTime()) : null;
    const ok = await writeHead(ctx, rt, {
      status: 'paused',
      deadlineAt: null,
      pausedRemainingMs: remaining,
      pauseReason: reason,
    });
    if (!ok) return stale(rt);
    tellStatus(ctx, rt);
    return { ok: true, params: { remainingMs: remaining, deadlineWas: iso(due) } };
  });
}

export function resumeWorld(ctx: ModContext, worldId: string, now = new Date()) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status !== 'paused') return refuse('moderation/not_paused');
    const w = await ctx.db.prisma.world.findUniqueOrThrow({ where: { id: rt.id } });
    const status = rt.state.players.length > 0 ? 'running' : 'open';
    const left = w.pausedRemainingMs ?? rt.settings.phaseSeconds * 1000;
    const deadlineAt = rt.head.stepKey === '' ? null : new Date(now.getTime() + left);
    const ok = await writeHead(ctx, rt, { status, deadlineAt, pausedRemainingMs: null, pauseReason: null });
    if (!ok) return stale(rt);
    tellStatus(ctx, rt);
    return { ok: true, params: { deadlineAt: iso(deadlineAt) } };
  });
}

/** Moves the current deadline (while paused: the time it will have left on resume). */
export function changeDeadline(
  ctx: ModContext,
  worldId: string,
  change: { shiftSeconds?: number | undefined; deadlineAt?: string | undefined },
  now = new Date(),
) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    if (rt.settings.status === 'paused') {
      const w = await ctx.db.prisma.world.findUniqueOrThrow({ where: { id: rt.id } });
      const was = w.pausedRemainingMs ?? rt.settings.phaseSeconds * 1000;
      const next =
        change.shiftSeconds !== undefined
          ? was + change.shiftSeconds * 1000
          : new Date(change.deadlineAt ?? 0).getTime() - now.getTime();
      const remaining = Math.max(1000, next);
      if (!(await writeHead(ctx, rt, { pausedRemainingMs: remaining }))) return stale(rt);
      return { ok: true, params: { paused: true, remainingMsWas: was, remainingMs: remaining } };
    }
    const due = rt.head.deadlineAt;
    if (!due || rt.head.stepKey === '') return refuse('moderation/no_deadline');
    const target =
      change.shiftSeconds !== undefined
        ? due.getTime() + change.shiftSeconds * 1000
        : new Date(change.deadlineAt ?? 0).getTime();
    // A deadline in the past would fire at the next poll: that is "resolve now", said explicitly.
    const deadlineAt = new Date(Math.max(target, now.getTime() + 1000));
    if (!(await writeHead(ctx, rt, { deadlineAt }))) return stale(rt);
    tellStatus(ctx, rt);
    return { ok: true, params: { deadlineWas: iso(due), deadlineAt: iso(deadlineAt) } };
  });
}

/** The current step's deadline, now: the hub applies the engine's default orders as at a deadline. */
export function resolveNow(ctx: ModContext, worldId: string, now = new Date()) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status !== 'running')
      return refuse(`moderation/${rt.settings.status === 'paused' ? 'already_paused' : 'closed'}`);
    if (!rt.head.deadlineAt || rt.head.stepKey === '') return refuse('moderation/no_deadline');
    const step = rt.head.stepKey;
    const waiting = rt.waitingFor();
    if (!(await writeHead(ctx, rt, { deadlineAt: now }))) return stale(rt);
    const r = await ctx.hub.fireDeadline(rt, now, ctx.db);
    if (!r) return refuse('moderation/no_deadline');
    if (!r.ok) return r;
    return { ok: true, params: { step, defaulted: waiting, version: r.version } };
  });
}

/** New deadline settings; the running deadline keeps its time, the next step uses the new length. */
export function changeSettings(
  ctx: ModContext,
  worldId: string,
  change: { deadline?: DeadlineSettings | undefined; earlyResolution?: boolean | undefined },
) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    const w = await ctx.db.prisma.world.findUniqueOrThrow({ where: { id: rt.id } });
    const setup = w.setup as Record<string, unknown>;
    const before = { deadline: setup.deadline ?? null, earlyResolution: w.earlyResolution };
    const ok = await writeHead(ctx, rt, {
      ...(change.deadline
        ? {
            phaseSeconds: phaseSecondsOf(change.deadline),
            deadlineMode: change.deadline.mode,
            setup: { ...setup, deadline: change.deadline },
          }
        : {}),
      ...(change.earlyResolution !== undefined ? { earlyResolution: change.earlyResolution } : {}),
    });
    if (!ok) return stale(rt);
    tellStatus(ctx, rt);
    return { ok: true, params: { before, after: change } };
  });
}

export function closeWorld(ctx: ModContext, worldId: string) {
  return inWorld<Params>(ctx, worldId, async (rt) => {
    if (rt.settings.status === 'closed') return refuse('moderation/closed');
    const was = rt.settings.status;
    if (!(await writeHead(ctx, rt, { status: 'closed', deadlineAt: null, pausedRemainingMs: null })))
      return stale(rt);
    tellStatus(ctx, rt);
    return { ok: true, params: { statusWas: was, version: rt.version } };
  });
}
