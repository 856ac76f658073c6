/**
 * 4.6 for kingdoms and empires (A.4-X step A, AMBIG-13 order): the Administration Table roll
 * (10.6, 11.6) and its result, the conversion to empire (11.1), every Rebellion Table result
 * (11.7) and the capital-loss rebellion (10.3). Work is a queue of tasks in `realm.tasks`; when a
 * player must choose (which province, which cities, which units, where the capital goes), the
 * choice waits in `realm.pending` and the queue resumes once it is answered.
 */

import { administratorAtCapital } from '../diplomacy/leader-types.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6 } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import { playerById, unitsOf } from '../model/queries.ts';
import {
  askChoice,
  patchRealm,
  patchRealmPlayer,
  type RealmTask,
  realmOf,
  realmPlayer,
} from '../model/realm.ts';
import type { Game, RealmStep, Transition } from '../model/state-ops.ts';
import { adminTableResult, effectivePercent, numberOutcome, turnsCounted } from './administration-columns.ts';
import { capitalMoves } from './capitals.ts';
import { becomeEmpire, garrisonCandidates } from './empire-conversion.ts';
import { civilDisorder, nextDefection, rollRebellion } from './rebellion-results.ts';
import { echoLedgerRows, noteOutcome } from './record.ts';

/**
 * 4.6 / 10.6.2 / 11.6: the administration of one kingdom or empire: roll on the column bought
 * this turn, apply the result, then the rebellion for a capital lost this turn (10.3).
 */
export function runRealmAdministration(ctx: EngineContext, g: Game, player: PlayerId): RealmStep {
  const p = playerById(g, player);
  const cycle = p?.cycle;
  if (!p || !cycle || (cycle.stage !== 'kingdom' && cycle.stage !== 'empire'))
    return { state: g, events: [], choice: null };
  const rp = realmPlayer(g, player);
  const tasks: RealmTask[] = [];
  const events: GameEvent[] = [];
  let s = patchRealm(g, { active: player, pending: null, tasks: [] });
  // AMBIG-12: no roll in the phase the stage was entered.
  const newStage = cycle.stageTurn === g.turn && !ctx.options.cfg.rollOnConversionTurn;
  if (!newStage) {
    const bought = rp.lastIncomeTurn === g.turn ? rp.adminPercent : 0;
    const percent = effectivePercent(
      ctx.options,
      cycle.people,
      bought,
      administratorAtCapital(s, player, p.capital),
    );
    const r = roll2d6(s);
    s = r.state;
    const result = adminTableResult(percent, r.sum);
    events.push({ type: 'administrationRolled', player, percent, dice: r.dice, result });
    s = noteOutcome(s, player, () => ({ roll: r.sum, result, rebellions: [], becameEmpire: false }));
    if (result === 'goodRuler' || result === 'corruption')
      s = patchRealmPlayer(s, player, { incomeEffect: result });
    else if (result === 'revival') tasks.push({ kind: 'revival' });
    else if (result === 'rebellion') tasks.push({ kind: 'rebellion', cause: 'administration' });
    else {
      const outcome = numberOutcome(
        cycle.stage,
        result,
        turnsCounted(g.turn, cycle.stageTurn, rp.revivalTurn),
      );
      if (outcome === 'becomeEmpire') tasks.push({ kind: 'becomeEmpire' });
      if (outcome === 'rebellion') tasks.push({ kind: 'rebellion', cause: 'empireNumber' });
    }
  }
  if (rp.capitalCapture?.turn === g.turn) tasks.push({ kind: 'rebellion', cause: 'capitalLoss' });
  s = patchRealm(s, { tasks });
  const d = drain(ctx, s);
  return { ...d, events: [...events, ...d.events] };
}

/** 4.6, AMBIG-13: run queued tasks until one needs a choice or none is left. */
export function drain(ctx: EngineContext, g: Game): RealmStep {
  let s = g;
  const events: GameEvent[] = [];
  for (let guard = 0; guard < 100; guard++) {
    const r = realmOf(s);
    if (r.pending) return { state: s, events, choice: { type: 'realm' } };
    const player = r.active;
    const [task, ...rest] = r.tasks;
    if (!player || !task || playerById(s, player)?.cycle == null) {
      return {
        state: patchRealm(s, { active: null, tasks: [], pending: null }),
        events,
        choice: null,
        stop: true,
      };
    }
    s = patchRealm(s, { tasks: rest });
    const t = runRealmTask(ctx, s, player, task);
    s = t.state;
    events.push(...t.events);
  }
  throw new Error('realm administration: task loop (engine bug)');
}

function runRealmTask(ctx: EngineContext, g: Game, player: PlayerId, task: RealmTask): Transition {
  switch (task.kind) {
    case 'becomeEmpire': {
      const candidates = garrisonCandidates(ctx, g, player);
      if (candidates.length === 0) return becomeEmpire(ctx, g, player, []);
      return { state: askChoice(g, { kind: 'garrisons', chooser: player, candidates }), events: [] };
    }
    case 'rebellion':
      return rollRebellion(ctx, g, player, task.cause);
    case 'defection':
      return nextDefection(ctx, g, player, task.queue);
    case 'civilDisorder':
      return civilDisorder(ctx, g, player, task.percent);
    case 'revival': {
      let s = patchRealmPlayer(g, player, { revivalTurn: g.turn });
      const events: GameEvent[] = [{ type: 'revival', player, turn: g.turn }];
      const capital = playerById(s, player)?.capital ?? null;
      const others = capitalMoves(ctx, s, player).filter((a) => a !== capital);
      if (others.length)
        s = askChoice(s, {
          kind: 'capital',
          chooser: player,
          candidates: [capital, ...others],
          reason: 'revival',
        });
      return { state: s, events };
    }
    case 'garrisonRemoval': {
      const candidates = unitsOf(g, player)
        .filter((u) => u.kind === 'garrison')
        .map((u) => u.id)
        .sort();
      if (!candidates.length) return { state: g, events: [] };
      return {
        state: askChoice(g, {
          kind: 'units',
          chooser: player,
          rebel: player,
          reason: 'garrisonsRemoval',
          count: candidates.length,
          candidates,
          upTo: true,
        }),
        events: [],
      };
    }
  }
}

/** 4.6: a kingdom's or empire's administration, the record-sheet rows it filled in echoed as events. */
export function administerRealm(ctx: EngineContext, g: Game, player: PlayerId): RealmStep {
  return echoLedgerRows(g, runRealmAdministration(ctx, g, player));
}
