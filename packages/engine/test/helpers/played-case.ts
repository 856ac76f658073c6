/**
 * Golden cases played through the engine's public contract (`createGame` → `applyOrder`, the
 * turn machine, `timeoutOrders`, `legalOrders`, `view`): a case file is data — a setup, then
 * steps of orders with what each must produce. Nothing here reaches into the engine's insides.
 *
 * A step is one of:
 * - `{ as, order }`: `as` ('system' for server orders) gives the order; it must be accepted,
 *   unless `refused` names the error code expected;
 * - `{ timeout: player }`: the player's deadline passes (`timeoutOrders`, applied in turn);
 * - `{ until }`: every waiting player gets its deadline defaults, again and again, until the game
 *   rests at the point described (`turn`, `step`, `phase`, `player`, `waitingFor`);
 * - `{}`: nothing is played, only checked.
 * Each may carry checks: `events` (each a partial event, found in that order among the events the
 * step produced), `noEvents`, `view` (dotted paths into the public view — an array is entered by
 * an element's `id` — each matching the value given, or absent for null), `legal` (per player,
 * legal orders that must or must not be offered), `waitingFor`, and `score` (the contract's
 * victory-point standing of a player, 14.3.1 / 14.3.2).
 */
import { expect } from 'vitest';
import {
  type Engine,
  type GameEvent,
  type GameState,
  type GameView,
  type Order,
  type PlayerId,
  playerScore,
} from '../../src/index.ts';

export interface PlayedCase {
  readonly case: string;
  readonly title: string;
  readonly source: string;
  readonly scenarios: readonly Scenario[];
}

export interface Scenario {
  readonly name: string;
  /** Why a position is built instead of playing from the 14.3 set-up (required with `position`). */
  readonly why?: string;
  readonly setup: Record<string, unknown> & { players?: unknown[] };
  readonly steps: readonly Step[];
}

type Partial = Record<string, unknown>;

interface Checks {
  readonly events?: readonly Partial[];
  readonly noEvents?: readonly Partial[];
  readonly view?: Readonly<Record<string, unknown>>;
  readonly legal?: Readonly<Record<string, { includes?: readonly Partial[]; excludes?: readonly Partial[] }>>;
  readonly waitingFor?: readonly string[];
  readonly score?: Readonly<Record<string, { basic?: number; average?: string }>>;
  readonly note?: string;
}

interface Until {
  readonly turn?: number;
  readonly step?: string;
  readonly phase?: string;
  readonly player?: string;
  readonly waitingFor?: string;
}

type Step = Checks & {
  readonly as?: string;
  readonly order?: Partial;
  readonly refused?: string;
  readonly timeout?: string;
  readonly until?: Until;
};

const COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'orange'] as const;

/** Players may be given by id alone: seats and colours follow the list. */
function expandSetup(setup: Scenario['setup']): Record<string, unknown> {
  const players = (setup.players ?? []).map((p, i) =>
    typeof p === 'string' ? { id: p, name: p.toUpperCase(), seat: i, colour: COLOURS[i] } : p,
  );
  return { seed: 'golden', ...setup, players };
}

/**
 * Does `actual` contain everything `expected` says? Arrays must match element by element, except
 * `{ "$contains": [...] }`, which asks each listed element to match some element of the array.
 */
function matches(actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  const contains = (expected as { $contains?: unknown[] } | undefined)?.$contains;
  if (Array.isArray(contains))
    return Array.isArray(actual) && contains.every((e) => actual.some((a) => matches(a, e)));
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matches(actual[i], e))
    );
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null) return false;
    // An empty object asks for an empty object (not for "anything").
    if (Object.keys(expected as Partial).length === 0) return Object.keys(actual).length === 0;
    return Object.entries(expected as Partial).every(([k, v]) => matches((actual as Partial)[k], v));
  }
  return actual === expected;
}

/** A dotted path into the view; an array is entered by the `id` of one of its elements. */
function at(view: unknown, path: string): unknown {
  let v: unknown = view;
  for (const key of path.split('.')) {
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v) && !/^\d+$/.test(key)) v = v.find((x) => (x as { id?: unknown }).id === key);
    else v = (v as Partial)[key];
  }
  return v;
}

const restsAt = (engine: Engine, s: GameState, u: Until): boolean => {
  const step = s.step as { kind: string; phase?: string; player?: string | null };
  return (
    (u.turn === undefined || s.turn === u.turn) &&
    (u.step === undefined || step.kind === u.step) &&
    (u.phase === undefined || step.phase === u.phase) &&
    (u.player === undefined || step.player === u.player) &&
    (u.waitingFor === undefined || engine.waitingFor(s).includes(u.waitingFor as PlayerId))
  );
};

function apply(engine: Engine, s: GameState, actor: string, order: unknown, where: string) {
  const r = engine.applyOrder(s, actor as PlayerId | 'system', order);
  if (!r.ok) throw new Error(`${where}: ${JSON.stringify(order)} refused: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** Deadline defaults for the waiting players until the game rests where `u` says. */
function playUntil(engine: Engine, start: GameState, u: Until, where: string) {
  let s = start;
  const events: GameEvent[] = [];
  for (let guard = 0; guard < 20_000; guard++) {
    if (restsAt(engine, s, u)) return { state: s, events };
    const p = engine.waitingFor(s)[0];
    if (!p)
      throw new Error(`${where}: nobody to act before ${JSON.stringify(u)} (turn ${s.turn}, ${s.step.kind})`);
    const orders = engine.timeoutOrders(s, p);
    if (orders.length === 0)
      throw new Error(`${where}: no default order for ${p} at ${JSON.stringify(s.step)}`);
    for (const o of orders) {
      const r = apply(engine, s, p, o, where);
      s = r.state;
      events.push(...r.events);
      if (restsAt(engine, s, u)) return { state: s, events };
    }
  }
  throw new Error(`${where}: never reached ${JSON.stringify(u)}`);
}

const show = (x: unknown) => JSON.stringify(x);

function check(engine: Engine, s: GameState, events: readonly GameEvent[], c: Checks, where: string) {
  let from = 0;
  for (const e of c.events ?? []) {
    const i = events.findIndex((x, k) => k >= from && matches(x, e));
    if (i < 0) {
      const same = events.filter((x) => x.type === e.type);
      expect.fail(`${where}: no event ${show(e)} (in order); events of that type: ${show(same)}`);
    }
    from = i + 1;
  }
  for (const e of c.noEvents ?? []) {
    const hit = events.find((x) => matches(x, e));
    if (hit) expect.fail(`${where}: unexpected event ${show(hit)}`);
  }
  if (c.view || c.score) {
    const view: GameView = engine.view(s, null);
    for (const [path, want] of Object.entries(c.view ?? {})) {
      const got = at(view, path);
      if (!matches(got, want)) expect.fail(`${where}: view ${path} is ${show(got)}, expected ${show(want)}`);
    }
    for (const [player, want] of Object.entries(c.score ?? {})) {
      const p = view.players.find((x) => x.id === player);
      if (!p) expect.fail(`${where}: no player ${player}`);
      const got = playerScore(p);
      if (want.basic !== undefined) expect(got.basic, `${where}: basic score of ${player}`).toBe(want.basic);
      if (want.average !== undefined)
        expect(got.average, `${where}: average of ${player}`).toBe(want.average);
    }
  }
  for (const [player, want] of Object.entries(c.legal ?? {})) {
    const legal = engine.legalOrders(s, player as PlayerId);
    for (const o of want.includes ?? [])
      if (!legal.some((x) => matches(x, o)))
        expect.fail(`${where}: ${player} is not offered ${show(o)}; offered: ${show(legal).slice(0, 2000)}`);
    for (const o of want.excludes ?? []) {
      const hit = legal.find((x) => matches(x, o));
      if (hit) expect.fail(`${where}: ${player} is offered ${show(hit)}`);
    }
  }
  if (c.waitingFor) expect(engine.waitingFor(s), `${where}: waiting for`).toEqual(c.waitingFor);
}

/** Play one scenario through the contract; every failed check names the step. */
export function playScenario(engine: Engine, sc: Scenario): GameState {
  if ('position' in sc.setup && !sc.why) throw new Error(`${sc.name}: a position needs its "why"`);
  const created = engine.createGame(expandSetup(sc.setup));
  if (!created.ok) throw new Error(`${sc.name}: setup refused: ${show(created.error)}`);
  let s = created.value;
  for (const [i, step] of sc.steps.entries()) {
    const where = `${sc.name}, step ${i + 1}`;
    let events: GameEvent[] = [];
    if (step.order) {
      const actor = step.as;
      if (!actor) throw new Error(`${where}: an order needs "as"`);
      if (step.refused) {
        const r = engine.applyOrder(s, actor as PlayerId | 'system', step.order as Order);
        if (r.ok) expect.fail(`${where}: ${show(step.order)} was accepted, expected ${step.refused}`);
        expect(r.error.code, `${where}: refusal`).toBe(step.refused);
      } else {
        const r = apply(engine, s, actor, step.order, where);
        s = r.state;
        events = r.events;
      }
    } else if (step.timeout) {
      for (const o of engine.timeoutOrders(s, step.timeout as PlayerId)) {
        const r = apply(engine, s, step.timeout, o, where);
        s = r.state;
        events.push(...r.events);
      }
    } else if (step.until) {
      const r = playUntil(engine, s, step.until, where);
      s = r.state;
      events = r.events;
    }
    check(engine, s, events, step, where);
  }
  return s;
}
