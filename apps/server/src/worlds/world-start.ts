/**
 * The game a world starts from, rebuilt from its stored setup: the engine's new game for the seed
 * and options (`createGame`), or — for a world an admin started from a position
 * (moderation/world-from-position.ts, docs/world-from-position.md) — that position opened with the
 * world's seed, exactly as it was when the world was made (snapshot 0).
 */
import { type Engine, type GameState, openPosition, type Result } from '@bke/engine';
import { z } from 'zod';

const fromPositionSchema = z.looseObject({ seed: z.string(), position: z.looseObject({}) });

export function worldStart(engine: Engine, setup: unknown): Result<GameState> {
  const p = fromPositionSchema.safeParse(setup);
  if (!p.success) return engine.createGame(setup);
  const opened = openPosition(engine, p.data.position, p.data.seed);
  if (opened.ok) return opened;
  return { ok: false, error: { code: 'setup/invalid', message: opened.error.message } };
}
