/**
 * `node --import tsx e2e/duel.ts '<json>'`: the two-player driver. Both players of one world are
 * played by ONE serialized loop — one order at a time, always for the first player the engine
 * waits for, each with its own sim policy — so the same seed gives the same game offline and
 * through the server. Used by `tests/diplomacy.spec.ts` through `goals.ts` (`duel`).
 *
 * Stage `meet` (no world given): tries seeds offline until one player is a kingdom or an empire
 * and the other a barbarian that may lease it combat units (13.4), and — playing on offline with
 * the offer and acceptance the browser will make — the lease comes into force at a later turn
 * start with the hirer able to move a leased unit. The admin creates the world with that seed
 * (mercenaries and tribute on), both accounts join, the bots play it up to the meeting and stop.
 * Stage `lease` (world given): plays on after the browser's offer and acceptance, up to the
 * hirer's movement phase with the lease in force.
 */
import {
  type Engine,
  type GameState,
  gameSetupSchema,
  type LegalOrder,
  type Order,
  type PlayerId,
  type Policy,
  RULES_VERSION,
  simplePolicy,
} from '@bke/engine';
import { type Account, Bot, botEngine, createWorld, joinWorld, logIn, signUp } from './bot.ts';
import type { DuelInput } from './goals.ts';

export const DUEL_OPTIONS = { opt: { mercenaries: true, tribute: true } };
/** Captured leaders and ransoms (13.6) are played in a world of their own. */
export const RANSOM_OPTIONS = { opt: { optionalLeaders: true } };
type Options = typeof DUEL_OPTIONS | typeof RANSOM_OPTIONS;

interface LeaseRow {
  owner: string;
  hirer: string;
  units: string[];
  price: number;
  status: string;
}
const leasesOf = (s: GameState): LeaseRow[] =>
  ((s as unknown as { realm?: { leases?: LeaseRow[] } }).realm?.leases ?? []) as LeaseRow[];
const stage = (s: GameState, id: string) => s.players.find((p) => p.id === id)?.cycle?.stage ?? null;
const money = (s: GameState, id: string) => s.players.find((p) => p.id === id)?.money ?? 0;

/** What the browser will offer: every leasable unit, for the highest listed price the hirer can pay. */
interface Meeting {
  owner: string;
  hirer: string;
  units: string[];
  price: number;
}

/** A kingdom/empire and a barbarian that may lease it units, with no agreement between them yet. */
function meeting(s: GameState, legalOf: (p: PlayerId) => LegalOrder[]): Meeting | null {
  for (const b of s.players) {
    if (stage(s, b.id) !== 'barbarian') continue;
    const offers = legalOf(b.id).flatMap((o) =>
      o.type === 'realmLeaseOffer' ? [o as unknown as { hirer: string; units: string[]; price: number }] : [],
    );
    for (const o of offers) {
      if (leasesOf(s).some((l) => l.owner === b.id && l.hirer === o.hirer)) continue;
      const all = offers.filter((x) => x.hirer === o.hirer && x.units.length === o.units.length);
      const affordable = all.filter((x) => x.price > 0 && x.price <= money(s, o.hirer));
      const best = affordable.sort((x, y) => y.price - x.price)[0];
      if (best) return { owner: b.id, hirer: o.hirer, units: best.units, price: best.price };
    }
  }
  return null;
}

/** The lease in force and the hirer, whose move it is, able to move one of the leased units. */
function leaseInForce(s: GameState, m: Meeting, waiting: string[], hirerLegal: () => LegalOrder[]) {
  const l = leasesOf(s).find((x) => x.owner === m.owner && x.hirer === m.hirer);
  if (l?.status !== 'active' || waiting[0] !== m.hirer) return null;
  if (s.step.kind !== 'playerTurn') return null;
  const legal = hirerLegal();
  const move = legal.find(
    (o) => o.type === 'move' && l.units.includes(String((o as unknown as { unit: string }).unit)),
  ) as unknown as { unit: string } | undefined;
  if (!move) return null;
  const area = s.units[move.unit as never]?.area as string;
  const owner = s.players.find((p) => p.id === m.owner);
  return {
    unit: move.unit,
    kind: s.units[move.unit as never]?.kind,
    area,
    areaName: botEngine().map.area(area as never)?.name ?? area,
    turn: s.turn,
    owner,
  };
}

const leaseGone = (s: GameState, m: Meeting) =>
  s.turn > 60 || !leasesOf(s).some((x) => x.owner === m.owner && x.hirer === m.hirer);

const policies = (seed: string) => {
  const made = new Map<string, Policy>();
  return (p: string) => {
    const pol = made.get(p) ?? simplePolicy(`${seed}-${p}`);
    made.set(p, pol);
    return pol;
  };
};

const orderFor = (engine: Engine, pol: Policy, s: GameState, p: PlayerId): Order | null =>
  pol.choose(engine, s, p) ?? engine.timeoutOrders(s, p)[0] ?? null;

/** Plays the whole scenario offline; the meeting and the lease in force, or null. */
/** The server's set-up offline: the world created with the options, the two accounts joined in order. */
function joined(
  engine: Engine,
  seed: string,
  names: [string, string],
  options: Options = DUEL_OPTIONS,
): GameState | null {
  const setup = gameSetupSchema.parse({ seed, options, rulesVersion: RULES_VERSION });
  const created = engine.createGame(setup);
  if (!created.ok) return null;
  let state = created.value;
  for (const [i, name] of names.entries()) {
    const colour = ['red', 'blue'][i];
    const join = { type: 'join', player: `p${i + 1}`, name, seat: i, colour } as unknown as Order;
    const r = engine.applyOrder(state, 'system' as PlayerId, join);
    if (!r.ok) return null;
    state = r.value.state;
  }
  return state;
}

function predict(seed: string, names: [string, string], maxOrders: number) {
  const engine = botEngine();
  const start = joined(engine, seed, names);
  if (!start) return null;
  let state: GameState = start;
  const pol = policies(`policy-${seed}`);
  let met: Meeting | null = null;
  let metAt = 0;
  for (let n = 0; n <= maxOrders; n++) {
    const waiting = engine.waitingFor(state);
    const legalOf = (p: PlayerId) => engine.legalOrders(state, p);
    if (!met) {
      met = meeting(state, legalOf);
      if (met) {
        metAt = n;
        // The browser's offer and acceptance.
        const { owner, hirer, units, price } = met;
        const offer = { type: 'realmLeaseOffer', hirer, units, price } as Order;
        const a = engine.applyOrder(state, owner as PlayerId, offer);
        if (!a.ok) return null;
        const b = engine.applyOrder(
          a.value.state,
          hirer as PlayerId,
          {
            type: 'realmLeaseAccept',
            owner,
          } as Order,
        );
        if (!b.ok) return null;
        state = b.value.state;
        continue;
      }
      if (state.turn > 30) return null;
    } else {
      const found = leaseInForce(state, met, waiting, () => legalOf(met?.hirer as PlayerId));
      if (found) return { met, metAt, found, orders: n };
      if (leaseGone(state, met)) return null;
    }
    const p = waiting[0];
    if (!p) return null;
    const order = orderFor(engine, pol(p), state, p);
    if (!order) return null;
    const r = engine.applyOrder(state, p, order);
    if (!r.ok) return null;
    state = r.value.state;
  }
  return null;
}

/** 13.7: a realm that may pay tribute to the player whose turn it is, with at least 2 it may pay. */
function tributeDue(s: GameState, legalOf: (p: PlayerId) => LegalOrder[]) {
  if (s.step.kind !== 'playerTurn') return null;
  const receiver = s.step.player as string;
  for (const p of s.players) {
    if (p.id === receiver) continue;
    const amounts = legalOf(p.id).flatMap((o) =>
      o.type === 'realmTribute' && String((o as unknown as { to: string }).to) === receiver
        ? [(o as unknown as { amount: number }).amount]
        : [],
    );
    const most = Math.max(0, ...amounts);
    if (most >= 2) {
      const r = s.players.find((x) => x.id === receiver);
      return { payer: p.id, receiver, most, receiverMoney: r?.money ?? 0, receiverStage: stage(s, receiver) };
    }
  }
  return null;
}

interface Prisoner {
  leader: string;
  owner: string;
  captor: string;
  ransom?: number;
}
const RANSOMS = [1, 3, 5, 10, 20];

/** 13.6: a captured leader whose owner could pay a ransom the captor may (newly) ask. */
function ransomDue(s: GameState) {
  const held = ((s as unknown as { realm?: { prisoners?: Prisoner[] } }).realm?.prisoners ??
    []) as Prisoner[];
  for (const p of held) {
    const money = s.players.find((x) => x.id === p.owner)?.money ?? 0;
    const amount = RANSOMS.filter((a) => a <= money && a !== p.ransom).at(-1);
    if (amount !== undefined && stage(s, p.owner) && stage(s, p.captor))
      return { leader: p.leader, owner: p.owner, captor: p.captor, amount, ownerMoney: money };
  }
  return null;
}

type Goal = 'lease' | 'tribute' | 'ransom';
const optionsOf = (goal: Goal): Options => (goal === 'ransom' ? RANSOM_OPTIONS : DUEL_OPTIONS);
const finderOf =
  (goal: Goal) =>
  (s: GameState): object | null => {
    const legalOf = (p: PlayerId) => botEngine().legalOrders(s, p);
    if (goal === 'tribute') return tributeDue(s, legalOf);
    if (goal === 'ransom') return ransomDue(s);
    return meeting(s, legalOf);
  };

/** Plays offline until the goal appears (tribute, ransom); the number of orders before it, or null. */
function predictGoal(seed: string, names: [string, string], maxOrders: number, goal: Goal) {
  const engine = botEngine();
  const find = finderOf(goal);
  const start = joined(engine, seed, names, optionsOf(goal));
  if (!start) return null;
  let state: GameState = start;
  const pol = policies(`policy-${seed}`);
  for (let n = 0; n <= maxOrders; n++) {
    const now = state;
    if (find(now)) return { metAt: n };
    if (now.turn > 40) return null;
    const p = engine.waitingFor(now)[0];
    if (!p) return null;
    const order = orderFor(engine, pol(p), now, p);
    if (!order) return null;
    const r = engine.applyOrder(now, p, order);
    if (!r.ok) return null;
    state = r.value.state;
  }
  return null;
}

/** Plays both bots, one order at a time, until `done` holds on the first bot's view. */
async function playBoth(bots: Bot[], seed: string, done: (b: Bot) => boolean, maxOrders: number) {
  const pol = policies(`policy-${seed}`);
  const byId = new Map(bots.map((b) => [b.playerId as string, b]));
  for (let n = 0; ; n++) {
    const top = Math.max(...bots.map((b) => b.version));
    for (const b of bots) await b.reach(top);
    for (const b of bots) await b.syncRealm();
    const first = bots[0] as Bot;
    if (done(first)) return;
    if (n >= maxOrders) throw new Error(`no situation within ${maxOrders} orders (turn ${first.view.turn})`);
    const waiting = (first.view as unknown as { waitingFor: string[] }).waitingFor;
    const p = waiting[0];
    const bot = p ? byId.get(p) : undefined;
    if (!bot) throw new Error(`waiting for ${p ?? 'nobody'} at turn ${first.view.turn}`);
    const order = orderFor(botEngine(), pol(p as string), bot.state(), p as PlayerId);
    if (!order) throw new Error(`no order for ${p}`);
    if (process.env.BOT_TRACE) process.stderr.write(`${first.view.turn} ${p} ${JSON.stringify(order)}\n`);
    await bot.send(order);
  }
}

const ADMIN = process.env.E2E_ADMIN_USERNAME ?? 'e2e_admin';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as DuelInput;
  const started = Date.now();
  const maxOrders = input.maxOrders ?? 1500;
  if ((input.stage as string) === 'predict') {
    // Debugging: the offline prediction alone (no server), e.g. `{"stage":"predict","seedBase":"x","names":["a","b"]}`.
    const { seedBase, names, candidates } = input as unknown as {
      seedBase: string;
      names: [string, string];
      candidates?: number;
    };
    for (let k = 0; k < (candidates ?? 60); k++) {
      const seed = `${seedBase}-${k}`;
      const goal = ((input as { goal?: Goal }).goal ?? 'lease') as Goal;
      const plan =
        goal === 'lease' ? predict(seed, names, maxOrders) : predictGoal(seed, names, maxOrders, goal);
      process.stderr.write(
        `${seedBase}-${k}: ${plan ? JSON.stringify(plan) : 'no'} ${Date.now() - started}ms\n`,
      );
      if (plan) return;
    }
    return;
  }
  if (input.stage === 'meet') {
    const names = input.names;
    const goal: Goal = input.goal ?? 'lease';
    const find = finderOf(goal);
    let plan: { metAt: number } | null = null;
    let seed = '';
    for (let k = 0; k < (input.candidates ?? 60) && !plan; k++) {
      seed = `${input.seedBase}-${k}`;
      plan = goal === 'lease' ? predict(seed, names, maxOrders) : predictGoal(seed, names, maxOrders, goal);
    }
    if (!plan) throw new Error(`no seed found for the ${goal} situation`);
    const accounts: Account[] = [];
    for (const name of names) accounts.push(await signUp(input.base, name));
    const admin = await logIn(input.base, ADMIN, ADMIN_PASSWORD);
    const worldId = await createWorld(input.base, admin, {
      name: `Duel ${input.seedBase}`,
      maxPlayers: 2,
      seed,
      options: optionsOf(goal),
    });
    for (const a of accounts) await joinWorld(input.base, a, worldId);
    const bots = await Promise.all(accounts.map((a) => Bot.connect(input.base, a, worldId)));
    try {
      await playBoth(bots, seed, (b) => find(b.state()) !== null, plan.metAt + 5);
      const b0 = bots[0] as Bot;
      const found = find(b0.state());
      const met = goal === 'lease' ? (found as Meeting) : null;
      const owner = met ? b0.view.players.find((p) => p.id === (met as Meeting).owner) : null;
      const out = {
        accounts,
        worldId,
        seed,
        turn: b0.view.turn,
        ms: Date.now() - started,
        met,
        owner,
        found,
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
    } finally {
      for (const b of bots) b.close();
    }
    return;
  }
  if (input.stage === 'turn') {
    // Plays on until the given game turn has begun.
    const bots = await Promise.all(input.accounts.map((a) => Bot.connect(input.base, a, input.worldId)));
    try {
      const waited = (b: Bot) => (b.view as unknown as { waitingFor: string[] }).waitingFor[0];
      const splitter = () =>
        bots.find((x) => x.playerId === waited(x) && x.legal().some((o) => o.type === 'split')) ?? null;
      await playBoth(
        bots,
        input.seed,
        (b) => b.view.turn >= input.turn && (!input.untilSplit || splitter() !== null),
        maxOrders,
      );
      const b0 = bots[0] as Bot;
      const out = {
        turn: b0.view.turn,
        players: b0.view.players,
        splitter: input.untilSplit ? splitter()?.playerId : undefined,
        ms: Date.now() - started,
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
    } finally {
      for (const b of bots) b.close();
    }
    return;
  }
  const { accounts, worldId, seed, met } = input;
  const bots = await Promise.all(accounts.map((a) => Bot.connect(input.base, a, worldId)));
  const hirer = bots.find((b) => b.playerId === met.hirer) as Bot;
  try {
    let found: object | null = null;
    // The barbarian's money and VP in the last view before the lease took effect and the first after.
    const purse = (s: GameState) => {
      const p = s.players.find((x) => x.id === met.owner);
      return { money: p?.money ?? 0, vp: p?.cycle?.vp ?? 0, turn: s.turn };
    };
    let before: ReturnType<typeof purse> | null = null;
    let atStart: ReturnType<typeof purse> | null = null;
    await playBoth(
      bots,
      seed,
      (b) => {
        const status = leasesOf(b.state()).find(
          (l) => l.owner === met.owner && l.hirer === met.hirer,
        )?.status;
        if (status === 'accepted') before = purse(b.state());
        if (status === 'active' && !atStart) atStart = purse(b.state());
        const waiting = (b.view as unknown as { waitingFor: string[] }).waitingFor;
        found = leaseInForce(b.state(), met, waiting, () => hirer.legal());
        if (!found && leaseGone(b.state(), met)) throw new Error('the lease went before it was in force');
        return found !== null;
      },
      maxOrders,
    );
    const out = { worldId, turn: hirer.view.turn, ms: Date.now() - started, found, before, atStart };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    for (const b of bots) b.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
