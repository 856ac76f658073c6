/**
 * `node --import tsx e2e/drive.ts '<json>'`: plays a player's orders through the real server with
 * the engine's sim policy until a named situation appears, then prints one JSON line describing
 * it (what the browser should do next). Used by the specs through `goals.ts`.
 *
 * With `seeded`, it first plays candidate worlds offline with the same engine, the same set-up as
 * the server's and the same policy, keeps the first seed whose world reaches the goal, and has the
 * admin create the world with that seed (reproducible; admins may set a world's seed). Otherwise
 * it plays random worlds, starting a new one when the dice leave the current one hopeless.
 * Debugging: BOT_TRACE=1 prints every order the bot sends, PREDICT_TRACE=<seed> every order the
 * offline prediction plays for that seed (the two lists must match).
 */
import {
  type GameState,
  gameSetupSchema,
  type LegalOrder,
  type Order,
  type PlayerId,
  RULES_VERSION,
  realmPlanCost,
  simplePolicy,
} from '@bke/engine';
import { type Account, Bot, botEngine, createWorld, joinWorld, logIn, signUp } from './bot.ts';
import { type DriveInput, GOALS, type Goal } from './goals.ts';

type Plan = Extract<LegalOrder, { type: 'realmPlan' }>['plan'];

/** What a finder sees: the state (rebuilt from the view online), the player, its legal orders. */
interface Seen {
  state: GameState;
  me: PlayerId;
  legal: LegalOrder[];
  myMove: boolean;
}

const areaName = (id: string) => botEngine().map.area(id as never)?.name ?? id;
const stageOf = (s: Seen) => s.state.players.find((p) => p.id === s.me)?.cycle?.stage ?? null;

/** A plan the form can make: one unit bought and a column above 0%, which the engine accepts. */
function kingdomPlan(s: Seen) {
  if (!s.myMove || s.state.step.kind !== 'economic' || stageOf(s) !== 'kingdom') return null;
  const plans = s.legal.flatMap((o) => (o.type === 'realmPlan' ? [o.plan] : []));
  const base = plans[0];
  if (!base) return null;
  const columns = [...new Set(plans.map((p) => p.adminPercent))].filter((c) => c > 0).sort((a, b) => a - b);
  const offers = plans.flatMap((p) => p.purchases);
  for (const column of columns) {
    for (const buy of offers) {
      const plan: Plan = {
        disband: base.disband,
        garrisonDisband: [],
        purchases: [buy],
        adminPercent: column,
        ...(base.capital !== undefined ? { capital: base.capital } : {}),
      };
      const order = { type: 'realmPlan', plan } as Order;
      if (botEngine().applyOrder(s.state, s.me, order).ok) {
        // What the form should preview and the record sheet then show (14.3.3 columns 6–9).
        const cost = realmPlanCost(botEngine(), s.state, s.me, plan);
        return { column, kind: buy.kind, area: buy.area, areaName: areaName(buy.area), cost };
      }
    }
  }
  return null;
}

/**
 * A realm whose money cannot pay every unit's upkeep (10.4 / 11.2): the plan must disband some, and
 * another minimal set than the suggested one exists.
 */
function upkeepShortfall(s: Seen) {
  if (!s.myMove || s.state.step.kind !== 'economic') return null;
  const base = s.legal.find((o) => o.type === 'realmPlan');
  if (base?.type !== 'realmPlan' || base.plan.disband.length === 0) return null;
  const other = otherDisbandSet(s, base.plan);
  if (!other) return null;
  const cost = realmPlanCost(botEngine(), s.state, s.me, base.plan);
  return { disband: base.plan.disband, stage: stageOf(s), cost, other };
}

/** Unit kinds whose label in the form starts with the kind's own name ("Infantry 4-2 in …"). */
const PLAIN_KINDS = new Set(['infantry', 'cavalry', 'bow', 'elite']);

/**
 * 10.4: the player picks which units go, as long as the set is minimal. Another set the engine
 * accepts — one suggested unit kept and another given up instead — told by kind and area, for units
 * the form's labels tell apart.
 */
function otherDisbandSet(s: Seen, plan: Plan) {
  const mine = Object.values(s.state.units).filter((u) => u.owner === s.me && PLAIN_KINDS.has(u.kind));
  const sig = (u: { kind: string; area: string }) => `${u.kind}@${u.area}`;
  const unique = mine.filter((u) => mine.filter((v) => sig(v) === sig(u)).length === 1);
  for (const keep of unique.filter((u) => plan.disband.includes(u.id))) {
    for (const drop of unique.filter((u) => !plan.disband.includes(u.id))) {
      const disband = [...plan.disband.filter((id) => id !== keep.id), drop.id];
      const other = { ...plan, disband } as Plan;
      if (!botEngine().applyOrder(s.state, s.me, { type: 'realmPlan', plan: other } as Order).ok) continue;
      return {
        keep: { kind: keep.kind, areaName: areaName(keep.area) },
        drop: { kind: drop.kind, areaName: areaName(drop.area) },
        cost: realmPlanCost(botEngine(), s.state, s.me, other),
      };
    }
  }
  return null;
}

const REBELLION = ['realmUnits', 'realmProvince', 'realmCities', 'realmCapital'];

/** A choice a rebellion (or a revival) owes this player. */
function rebellionChoice(s: Seen) {
  if (!s.myMove) return null;
  const owed = s.legal.filter((o) => REBELLION.includes(o.type));
  const first = owed[0];
  return first ? { type: first.type, choices: owed.length, stage: stageOf(s) } : null;
}

/** A kingdom turning into an empire (11.1): which infantry become garrisons. */
function empireGarrisons(s: Seen) {
  if (!s.myMove) return null;
  const owed = s.legal.filter((o) => o.type === 'realmGarrisons');
  return owed.length ? { choices: owed.length, stage: stageOf(s) } : null;
}

/**
 * A ship of this player that can sail with a unit aboard: to a coast it does not have to fight for, or
 * (`landing`) into an enemy-held coastal area (8.2).
 */
function cargoVoyage(s: Seen, landing: boolean) {
  if (!s.myMove) return null;
  for (const o of s.legal) {
    if (o.type !== 'shipMove' || !o.cargo.length || Boolean(o.landing) !== landing) continue;
    const to = o.path[o.path.length - 1] as string;
    const from = s.state.units[o.ship]?.area as string;
    return { ship: o.ship, cargo: o.cargo, from, fromName: areaName(from), to, toName: areaName(to) };
  }
  return null;
}

const shipWithCargo = (s: Seen) => cargoVoyage(s, false);
const shipLanding = (s: Seen) => cargoVoyage(s, true);

const FINDERS: Record<Goal, (s: Seen) => object | null> = {
  kingdomPlan,
  upkeepShortfall,
  rebellionChoice,
  empireGarrisons,
  shipWithCargo,
  shipLanding,
};

/** When a world is not worth playing on for a goal (the dice left the horde a barbarian). */
const HOPELESS: Record<Goal, (s: Seen) => boolean> = {
  kingdomPlan: (s) => s.state.turn > 15 && stageOf(s) !== 'kingdom',
  upkeepShortfall: (s) => s.state.turn > 40 || (s.state.turn > 15 && stageOf(s) === 'barbarian'),
  rebellionChoice: (s) => s.state.turn > 40 || (s.state.turn > 15 && stageOf(s) === 'barbarian'),
  empireGarrisons: (s) => s.state.turn > 40 || (s.state.turn > 15 && stageOf(s) === 'barbarian'),
  shipWithCargo: (s) => s.state.turn > 40,
  shipLanding: (s) => s.state.turn > 40,
};

const seenOf = (bot: Bot): Seen => ({
  state: bot.state(),
  me: bot.playerId as PlayerId,
  legal: bot.legal(),
  myMove: bot.myMove(),
});

/**
 * Plays the server's set-up for one joining player offline, with the policy the bot will use;
 * the number of orders after which the goal appears, or null.
 */
function predict(
  seed: string,
  policySeed: string,
  name: string,
  goal: Goal,
  maxOrders: number,
): number | null {
  const engine = botEngine();
  const setup = gameSetupSchema.parse({ seed, options: {}, rulesVersion: RULES_VERSION });
  const created = engine.createGame(setup);
  if (!created.ok) return null;
  const me = 'p1' as PlayerId;
  const join = { type: 'join', player: me, name, seat: 0, colour: 'red' } as unknown as Order;
  const joined = engine.applyOrder(created.value, 'system' as PlayerId, join);
  if (!joined.ok) return null;
  let state = joined.value.state;
  const policy = simplePolicy(policySeed);
  for (let n = 0; n <= maxOrders; n++) {
    const seen: Seen = {
      state,
      me,
      legal: engine.legalOrders(state, me),
      myMove: engine.waitingFor(state).includes(me),
    };
    if (FINDERS[goal](seen)) return n;
    if (HOPELESS[goal](seen) || !seen.myMove) return null;
    const order = policy.choose(engine, state, me) ?? engine.timeoutOrders(state, me)[0];
    if (!order) return null;
    if (process.env.PREDICT_TRACE === seed)
      process.stderr.write(`P ${state.turn} ${state.step.kind} ${JSON.stringify(order)}\n`);
    const r = engine.applyOrder(state, me, order);
    if (!r.ok) return null;
    state = r.value.state;
  }
  return null;
}

const ADMIN = process.env.E2E_ADMIN_USERNAME ?? 'e2e_admin';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as DriveInput;
  if (!GOALS.includes(input.goal)) throw new Error(`unknown goal ${input.goal}`);
  const stamp = Date.now().toString(36).slice(-5);
  const started = Date.now();
  const maxOrders = input.maxOrders ?? 900;
  const account: Account = input.account ?? (await signUp(input.base, input.name ?? `bot_${stamp}`));
  const find = FINDERS[input.goal];
  const given = input.worldId;
  const attempts = given ? 1 : (input.attempts ?? 6);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let worldId = given;
    let policySeed = input.policySeed ?? `drive-${stamp}-${attempt}`;
    let predicted: number | null = null;
    let seed: string | null = null;
    if (!worldId && input.seeded) {
      for (let k = 0; k < (input.candidates ?? 80) && predicted === null; k++) {
        seed = `${input.seedBase ?? stamp}-${attempt}-${k}`;
        policySeed = `policy-${seed}`;
        predicted = predict(seed, policySeed, account.name, input.goal, maxOrders);
      }
      if (predicted === null) throw new Error(`no seed found for ${input.goal}`);
      const admin = await logIn(input.base, ADMIN, ADMIN_PASSWORD);
      worldId = await createWorld(input.base, admin, {
        name: `Seeded ${stamp}-${attempt}`,
        maxPlayers: 2,
        seed,
      });
      await joinWorld(input.base, account, worldId);
    } else if (!worldId) {
      worldId = await createWorld(input.base, account, { name: `Driven ${stamp}-${attempt}`, maxPlayers: 2 });
      await joinWorld(input.base, account, worldId);
    }
    const bot = await Bot.connect(input.base, account, worldId, policySeed);
    let found: object | null = null;
    let hopeless = false;
    try {
      await bot.playUntil(
        (b) => {
          const seen = seenOf(b);
          found = find(seen);
          hopeless = !found && HOPELESS[input.goal](seen);
          return found !== null || hopeless;
        },
        maxOrders,
        input.goal,
      );
    } finally {
      bot.close();
    }
    if (found) {
      const out = {
        account,
        worldId,
        seed,
        predicted,
        playerId: bot.playerId,
        turn: bot.view.turn,
        orders: bot.orders,
        attempt,
        ms: Date.now() - started,
        found,
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return;
    }
    process.stderr.write(`drive ${input.goal}: world ${attempt} gave up at turn ${bot.view.turn}\n`);
  }
  throw new Error(`${input.goal} did not appear in ${attempts} world(s)`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
