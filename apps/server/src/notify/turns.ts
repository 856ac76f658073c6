/**
 * "Your move" for players who are away: when a world starts waiting for a player who has no
 * socket open on it, the server posts a line to the webhook the player set (account settings).
 * Once per step and player, even with several server processes (the seat's `notified_key` is
 * claimed in the database); never inside the world's queue (delivery is slow and may fail).
 */
import type { GameState, PlayerId } from '@bke/engine';
import type { Database } from '../db/database.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { sendWebhook, type WebhookMessage } from './webhook.ts';

export interface TurnNotifierOptions {
  /** The site's public address, for a link to the world (PUBLIC_URL); none without it. */
  publicUrl?: string | null;
  /** Whether the player has a socket open on the world in this process (then it sees for itself). */
  online(worldId: string, playerId: string): boolean;
  /** Tests post to a receiver on 127.0.0.1. */
  allowPrivate?: boolean;
  log(msg: string, data?: object): void;
}

const PHASES: Record<string, string> = {
  combination: 'tribal combination',
  growth: 'tribal growth',
  movement: 'movement',
  stacking: 'settling overstacked areas',
  combat: 'combat',
};

/** The step in a few words, for the message. */
export function stepText(step: GameState['step']): string {
  switch (step.kind) {
    case 'playerTurn':
      return PHASES[step.phase] ?? step.phase;
    case 'economic':
      return 'the economic phase';
    case 'administration':
      return 'administration';
    case 'entry':
      return 'choosing where your horde starts';
    default:
      return 'a decision';
  }
}

export function turnMessage(
  world: { id: string; name: string },
  state: GameState,
  deadlineAt: Date | null,
  publicUrl: string | null | undefined,
): WebhookMessage {
  const link = publicUrl ? `${publicUrl.replace(/\/+$/, '')}/#/world/${encodeURIComponent(world.id)}` : null;
  const due = deadlineAt ? ` Deadline ${deadlineAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.` : '';
  return {
    text: `Your move in ${world.name}: turn ${state.turn}, ${stepText(state.step)}.${due}${link ? ` ${link}` : ''}`,
    data: {
      worldId: world.id,
      world: world.name,
      turn: state.turn,
      step: state.step.kind,
      deadlineAt: deadlineAt?.toISOString() ?? null,
      url: link,
    },
  };
}

export function watchTurns(db: Database, hub: WorldHub, options: TurnNotifierOptions): void {
  /** Who each world waited for after the last commit this process saw. */
  const waited = new Map<string, Set<string>>();
  const names = new Map<string, string>();

  hub.afterCommit.push((rt) => {
    const now = new Set<string>(rt.waitingFor());
    const before = waited.get(rt.id);
    waited.set(rt.id, now);
    const fresh = [...now].filter((p) => !before?.has(p) && !options.online(rt.id, p));
    if (fresh.length === 0 || !rt.head.stepKey || rt.settings.status !== 'running') return;
    void tell(rt, fresh as PlayerId[]).catch((e) =>
      options.log('turn notification failed', { err: String(e) }),
    );
  });

  async function tell(rt: WorldRuntime, players: PlayerId[]) {
    const key = rt.head.stepKey;
    const state = rt.state;
    const deadlineAt = rt.head.deadlineAt;
    // Claims the seats with a webhook that were not told about this step yet.
    const claimed = await db.sql<{ player_id: string; webhook_url: string }>(
      `UPDATE world_seats s SET notified_key = $3
         FROM users u
        WHERE s.world_id = $1 AND s.player_id = ANY($2) AND s.left_at IS NULL AND NOT s.absent
          AND s.notified_key IS DISTINCT FROM $3
          AND u.id = s.user_id AND u.webhook_url IS NOT NULL
      RETURNING s.player_id, u.webhook_url`,
      [rt.id, players, key],
    );
    if (claimed.length === 0) return;
    let name = names.get(rt.id);
    if (!name) {
      name =
        (await db.prisma.world.findUnique({ where: { id: rt.id }, select: { name: true } }))?.name ??
        'a world';
      names.set(rt.id, name);
    }
    const message = turnMessage({ id: rt.id, name }, state, deadlineAt, options.publicUrl);
    await Promise.all(
      claimed.map(async (c) => {
        const r = await sendWebhook(c.webhook_url, message, { allowPrivate: options.allowPrivate ?? false });
        if (!r.delivered)
          options.log('turn notification not delivered', {
            worldId: rt.id,
            playerId: c.player_id,
            reason: r.reason,
          });
      }),
    );
  }
}
