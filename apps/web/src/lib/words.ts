/**
 * The game's language for someone who never read the rulebook: phases, stages, unit names,
 * error codes and events turned into plain sentences: codes come in, words go out.
 */

// A type alone: the format itself loads with the analysis board's chunk, not with every page.
import type { PositionErrorCode } from '@bke/engine';
import type { ErrorCode, GameView, PlayerPhase, RecordErrorCode, StepKind, WorldEvent } from '@bke/protocol';
import { untilWords } from './ui/time.ts';

export const PHASE_WORDS: Record<PlayerPhase, { name: string; hint: string }> = {
  combination: {
    name: 'Tribal combination',
    hint: 'Pair up tribes: each may step one area so the two meet; next turn they become a fighting unit.',
  },
  growth: { name: 'Tribal growth', hint: 'Each tribe may split into two.' },
  movement: {
    name: 'Movement',
    hint: 'Pick a unit, then one of its lit destinations. Roads give one extra area.',
  },
  stacking: { name: 'Stacking', hint: 'Too many units share an area: choose which to disband.' },
  combat: { name: 'Combat', hint: 'Attack unfriendly units next to yours; the odds column is shown first.' },
};

export const STAGE_WORDS = { barbarian: 'Barbarian horde', kingdom: 'Kingdom', empire: 'Empire' } as const;

/** Counter names and their printed strength–movement (2.3); tribes use the world's options. */
const KINDS: Record<string, { name: string; short: string; face: string }> = {
  tribe: { name: 'Tribe', short: 'Tr', face: '(1)-1' },
  garrison: { name: 'Garrison', short: 'Ga', face: '(4)-0' },
  barbarianInfantry: { name: 'Barbarian infantry', short: 'In', face: '3-3' },
  infantry: { name: 'Infantry', short: 'In', face: '4-2' },
  barbarianHorse: { name: 'Barbarian horse', short: 'Ho', face: '3-4' },
  cavalry: { name: 'Cavalry', short: 'Ca', face: '4-4' },
  horseBow: { name: 'Horse bow', short: 'HB', face: '2-4' },
  bow: { name: 'Bow', short: 'Bw', face: '2-3' },
  ship: { name: 'Ship', short: 'Sh', face: '1-4' },
  elite: { name: 'Elite', short: 'El', face: '5-3' },
  leader: { name: 'Leader', short: 'Ld', face: '+1' },
};

export function unitWords(kind: string, view?: Pick<GameView, 'options'>) {
  const k = KINDS[kind] ?? { name: kind, short: kind.slice(0, 2), face: '' };
  if (kind === 'tribe' && view?.options?.cfg) {
    const s = view.options.cfg.tribeStrength ?? 1;
    const m = view.options.cfg.tribeMA ?? 1;
    return { ...k, face: `(${s})-${m}` };
  }
  return k;
}

/** What the server's `server/database` notices say (connection.svelte.ts keeps the last one). */
export const DATABASE_WORDS = {
  down: 'The game server has lost its database for a moment: nothing new can be saved, so orders and chat are refused until it is back. What you see stays as it is.',
  back: 'The game server has its database back: orders and chat work again, and the world has caught up.',
} as const;

/** Codes the page raises itself: the server could not be reached, did not answer, or answered oddly. */
export const CLIENT_ERROR_CODES = ['net/offline', 'net/timeout', 'net/bad_answer'] as const;
/**
 * Every code a screen may have to put in words: the server's and the engine's, the page's own, and
 * a game record file's refusals (read in the page, docs/game-records.md) and a shared position's
 * (an analysis board's link, read in the page, docs/analysis-board.md).
 */
export type ClientErrorCode =
  | ErrorCode
  | (typeof CLIENT_ERROR_CODES)[number]
  | RecordErrorCode
  | PositionErrorCode;
type Params = Readonly<Record<string, unknown>>;

const count = (v: unknown, one: string, many = `${one}s`): string =>
  typeof v === 'number' ? `${v} ${v === 1 ? one : many}` : many;
/** How long a rate limit asks to wait (`retryAfterSeconds`), in the largest unit that reads well. */
const waitFor = (p: Params, otherwise = 'a moment'): string => {
  const s = p.retryAfterSeconds;
  if (typeof s !== 'number' || !(s > 0)) return otherwise;
  if (s < 120) return count(Math.ceil(s), 'second');
  if (s < 7200) return count(Math.ceil(s / 60), 'minute');
  return count(Math.ceil(s / 3600), 'hour');
};
/** " forever" or " until <local time with zone>" (a lift by hand is stored as the year 9999). */
const until = (v: unknown): string => (typeof v === 'string' ? ` ${untilWords(v)}` : '');

/**
 * Every error code in words, closed: a code without words does not compile (and a test lists the
 * codes from their real sources). Codes that carry parameters say them.
 */
export const ERROR_WORDS: { readonly [C in ClientErrorCode]: string | ((p: Params) => string) } = {
  'http/not_found': 'That page or world does not exist.',
  'http/method_not_allowed': 'The server does not take that kind of request there.',
  'http/bad_json': 'The request was garbled; please try again.',
  'http/unsupported_media_type': 'The request was sent in a form the server does not read.',
  'http/too_large': (p) =>
    typeof p.limit === 'number' ? `That is too long (at most ${p.limit} bytes).` : 'That is too long.',
  'http/invalid': 'Some fields are not filled in correctly.',
  'http/rate_limited': (p) => `Too many attempts — wait ${waitFor(p, 'a minute')} and try again.`,
  'http/internal': 'The server hit a problem. Try again in a moment.',
  'http/cross_site': 'The request was refused as cross-site; reload the page and try again.',
  'http/bad_url': 'That address could not be read; check it for stray % signs.',
  'http/bad_request': 'The request could not be read; please try again.',
  'http/headers_too_large': 'That address is too long (or your browser sent too many cookies for this site).',
  'http/timeout': 'The request took too long to arrive; please try again.',
  'auth/required': 'Please log in first.',
  'auth/forbidden': (p) =>
    p.reason === 'spectator'
      ? 'Spectators can watch but not act: join the world to play.'
      : p.reason === 'seed'
        ? "Only an admin may choose a world's seed."
        : p.reason === 'self'
          ? 'You cannot do that to your own account.'
          : p.needs === 'admin'
            ? 'Only admins may do that.'
            : p.needs === 'moderator'
              ? 'Only moderators may do that.'
              : 'You are not allowed to do that.',
  'auth/bad_credentials': 'That name and password do not match.',
  'auth/username_taken': 'That name is already taken — pick another.',
  'auth/banned': (p) => `This account is banned${until(p.until)}.`,
  'auth/slow_down': (p) =>
    `Too many wrong passwords for this account lately. Wait ${typeof p.retryAfterSeconds === 'number' ? count(Math.ceil(p.retryAfterSeconds), 'second') : 'a moment'} before the next try; from a browser you logged in with before, you can try at once.`,
  'auth/busy': (p) =>
    `The server is checking many passwords right now. Try again in ${typeof p.retryAfterSeconds === 'number' ? count(Math.ceil(p.retryAfterSeconds), 'second') : 'a few seconds'}; nothing was changed.`,
  'auth/unavailable': 'Your sign-in could not be checked just now; the page retries by itself in a moment.',
  'auth/revoked': 'Your session or your seat ended while the order was on its way; reload the page.',
  'world/not_found': 'That world does not exist, or it is open only to the people invited into it.',
  'world/full': 'That world has no free seat.',
  'world/closed': 'That world is closed.',
  'world/paused': 'The world is paused by a moderator; orders wait until it resumes.',
  'world/already_seated': 'You already have a seat in this world.',
  'world/not_seated': 'You do not have a seat in this world.',
  'world/colour_taken': (p) =>
    typeof p.colour === 'string'
      ? `The colour ${p.colour} is taken; choose another.`
      : 'That colour is taken; choose another.',
  'world/not_subscribed': 'The world page lost its connection; it is reconnecting.',
  'world/busy': 'The world is busy resolving; try again in a moment.',
  'world/replay_busy': (p) =>
    `The server is replaying many past turns right now. Try again in ${waitFor(p, 'a few seconds')}.`,
  'world/create_limit': (p) =>
    p.per === 'address'
      ? `As many worlds as one day allows${typeof p.limit === 'number' ? ` (${p.limit})` : ''} were created from your network, whoever was logged in. Join a running one, or create yours in ${waitFor(p, 'a day')}.`
      : `You have created as many worlds as one day allows${typeof p.limit === 'number' ? ` (${p.limit})` : ''}. Join a running one, or try tomorrow.`,
  'world/join_limit': (p) =>
    `You have joined this world as often as one day allows${typeof p.limit === 'number' ? ` (${count(p.limit, 'time')})` : ''}. Try again tomorrow.`,
  'world/not_a_bot': 'That seat is not a bot’s.',
  'world/not_creator':
    'Only the world’s creator or a moderator can do that (seat bots, invite people, change who may join).',
  'socket/invalid': (p) =>
    p.reason === 'too_large'
      ? 'That message is too large for the server.'
      : 'The server did not understand that message.',
  'socket/rate_limited': (p) => `Slow down a little — too many actions at once; wait ${waitFor(p)}.`,
  'socket/internal': 'The server hit a problem. Try again in a moment.',
  'socket/too_many': (p) =>
    `Too many pages of this site are open at once${p.per === 'address' ? ' from your network' : ''}${typeof p.limit === 'number' ? ` (at most ${p.limit})` : ''}; close some and reload.`,
  'socket/unknown_event': 'The server did not understand that message; reload the page.',
  'account/link_invalid':
    'This link is not valid — it may have been cut short. Copy the whole link from the e-mail.',
  'account/link_expired': 'This link has expired. Ask for a new one.',
  'account/link_used': 'This link was used already; each link works once. Ask for a new one if you need it.',
  'account/email_taken': 'Another account confirmed this e-mail address first.',
  'profile/hidden': 'This player keeps their profile to themselves.',
  'block/not_found': 'There is no player by that name.',
  'block/self': 'You cannot mute your own chat.',
  'block/too_many': (p) =>
    `You mute ${typeof p.limit === 'number' ? p.limit : 'the most'} players already: unmute one first.`,
  'sync/stale': 'The world moved on while you were choosing; your screen has been refreshed.',
  'chat/unknown_recipient': 'That player is not in this world.',
  'chat/muted': (p) => `A moderator has muted you in chat${until(p.until) || ' for now'}.`,
  'chat/too_fast': (p) =>
    `You are sending chat lines too fast${typeof p.limit === 'number' ? ` (at most ${p.limit} a minute)` : ''} — wait ${waitFor(p, 'a minute')}.`,
  'bot/not_found': 'That bot or token is not one of yours (it may have been revoked already).',
  'bot/too_many': (p) =>
    `You hold as many as allowed${typeof p.limit === 'number' ? ` (${p.limit})` : ''} — revoke one first.`,
  'bot/not_allowed': 'A bot account cannot make or manage bots; sign in as the person who owns it.',
  'notify/no_webhook': 'Set a webhook address first, then test it.',
  'text/control_characters':
    'That text holds characters that cannot be typed (control characters); remove them and try again.',
  'moderation/not_found': 'That was not found: it may have been deleted, or it is not yours to see.',
  'moderation/not_paused': 'The world is not paused.',
  'moderation/already_paused': 'The world is already paused.',
  'moderation/closed': 'That world is closed.',
  'moderation/no_deadline': 'The world has no running deadline to change.',
  'moderation/no_such_turn': (p) =>
    typeof p.turn === 'number'
      ? `The world has no start of turn ${p.turn} to go back to.`
      : 'There is no such turn to go back to.',
  'moderation/seat_taken': (p) =>
    typeof p.username === 'string'
      ? `${p.username} already has a seat in this world.`
      : 'That account already has a seat in this world.',
  'moderation/outranked': 'That account outranks yours: ask an admin.',
  'moderation/report_closed': 'That report has already been dealt with.',
  'moderation/last_admin':
    'That is the last admin who can log in: make another account admin first, or the site would have none.',
  'moderation/not_removed': 'That account was not removed from this world by a moderator: nothing to allow.',
  'moderation/not_reportable': 'Messages from the moderators cannot be reported.',
  'moderation/position_refused': (p) => {
    const inner = p.position as { code?: unknown } | undefined;
    const code = typeof inner?.code === 'string' ? inner.code : '';
    const words = code.startsWith('position/') ? errorWords(inner as { code: ClientErrorCode }) : '';
    return `A world cannot start from this position.${words ? ` ${words}` : ''}`;
  },
  'moderation/position_seats': (p) => {
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
    const parts = [
      list(p.missing).length ? `no seat for ${list(p.missing).join(', ')}` : '',
      list(p.unknown).length ? `no such player (or given twice): ${list(p.unknown).join(', ')}` : '',
      list(p.twice).length ? `one account named for two seats: ${list(p.twice).join(', ')}` : '',
    ].filter(Boolean);
    return `Every player of the position still in the game needs exactly one seat${parts.length ? ` (${parts.join('; ')})` : ''}.`;
  },
  'world/invite_invalid':
    'This invitation link does not work: it was mistyped, or the world’s creator revoked it or made a new one. Ask them for the current link.',
  'world/seats_reserved': 'The free seats of this world are kept for the people invited into it.',
  'world/not_ended': 'This world has not ended yet: only an ended world can be played again.',
  'world/not_a_player': 'Only the people who played this world can play it again.',
  'world/no_spectators': 'This world takes no spectators: only its players can watch it.',
  'world/no_such_player': 'There is no player of that name.',
  'world/removed':
    'A moderator removed you from this world. You can join it again only if a moderator allows it.',
  'setup/invalid': 'That world cannot be set up that way.',
  'setup/map_invalid': 'The map of that world cannot be used.',
  'order/invalid': (p) =>
    typeof p.reason === 'string' && p.reason in PLAN_PROBLEM_WORDS
      ? planProblemWords(p.reason)
      : 'That order is not understood.',
  'order/not_your_turn': 'It is not your turn to act.',
  'order/wrong_phase': 'That cannot be done in this phase.',
  'order/unknown_unit': 'That unit is no longer on the map.',
  'order/not_your_unit': 'That unit is not yours.',
  'order/not_adjacent': 'Those areas are not next to each other.',
  'order/unreachable': 'That unit cannot reach there this turn.',
  'order/already_moved': 'That unit has already moved this phase.',
  'order/blocked': 'The way is blocked by unfriendly units.',
  'order/desert': 'Tribes may not enter the desert.',
  'order/not_a_tribe': 'Only a tribe can do that.',
  'order/tribe_inverted': 'That tribe was combined this turn and must wait.',
  'order/area_occupied': 'That area is occupied.',
  'order/growth_banned': 'No growth: you began the turn with fighting units on the map.',
  'order/tribe_limit': (p) =>
    `You already have the most tribes allowed (${typeof p.limit === 'number' ? p.limit : 36}).`,
  'order/already_split': 'That tribe has already split this phase.',
  'order/start_unavailable': 'That start position is held by someone else.',
  'order/start_too_early': 'That start position is not open yet this early in the game.',
  'order/start_area_invalid': 'A first tribe cannot be placed there.',
  'order/option_off': 'That optional rule is not used in this world.',
  'order/not_allowed_for_people': 'Your people may not do that.',
  'order/sea_crossing_invalid': 'That sea crossing is not possible from here.',
  'order/not_pillageable': 'That city cannot be pillaged.',
  'order/not_a_barbarian': 'Only barbarians can do that.',
  'order/still_overstacked': 'Some area still holds too many units.',
  'order/not_overstacked': 'That area is not overstacked: nothing there needs disbanding.',
  'order/wrong_count': (p) =>
    typeof p.expected === 'number'
      ? `Choose exactly ${count(p.expected, 'unit')}${typeof p.got === 'number' ? ` (you chose ${p.got})` : ''}.`
      : 'Choose exactly the number of units asked for.',
  'order/not_a_group': 'That area is not in one of your groups of tribes.',
  'order/invalid_placement': 'The units cannot be placed there.',
  'order/nothing_to_undo': 'There is nothing to take back.',
  'order/abandon_not_allowed':
    'Under the advanced victory conditions a position may be abandoned only after a turn with income below 10.',
  'order/game_idle': 'The world is waiting for players.',
  'order/support_move_owed': (p) =>
    `${Array.isArray(p.units) && p.units.length ? count(p.units.length, 'unit') : 'Units'} out of imperial support must first move back into support before the phase can end.`,
  'system/unknown_player': 'That player is not in this world.',
  'system/player_exists': 'That player is already in this world.',
  'system/seat_taken': 'That seat or colour is taken.',
  'system/only_system': 'Only the server may do that.',
  'combat/not_combat_phase': 'Attacks are made in the combat phase.',
  'combat/not_your_choice': 'Another player has to decide this.',
  'combat/resolution_pending': 'Finish the current combat first (losses, retreats or advances).',
  'combat/nothing_pending': 'There is no combat waiting for that choice.',
  'combat/no_attackers': 'Choose at least one attacking unit.',
  'combat/duplicate_unit': 'A unit is listed twice.',
  'combat/not_your_unit': 'That unit is not yours.',
  'combat/cannot_attack': 'That unit cannot attack.',
  'combat/coup_restricted': 'After the attempted coup, elites may only act near the capital this turn.',
  'combat/already_attacked': 'That unit or area has already fought this phase.',
  'combat/not_adjacent': 'Attackers must be next to the area they attack.',
  'combat/no_defenders': 'There is nothing there to attack.',
  'combat/tribes_attack_tribes_only': 'Tribes may attack only other tribes.',
  'combat/tribes_alone': 'Tribes may not attack together with other units in this world.',
  'combat/odds_off_table': 'Those odds are too low to attack.',
  'combat/illegal_retreat': 'That retreat is not allowed.',
  'combat/illegal_losses': 'Those losses do not settle what is owed.',
  'combat/illegal_advance': 'That unit cannot advance there.',
  'combat/wrong_step': 'That is not the choice this combat is waiting for.',
  'combat/landing_owed': 'Your landing force must attack before the combat phase can end.',
  // The reason is the schema's (which field, what is wrong with it), never the code itself.
  'record/invalid': (p) =>
    `This file is not a game record this page can read${typeof p.message === 'string' && !p.message.includes('record/') ? ` (${p.message})` : ''}.`,
  'record/unknown_format': 'This file is not a BKE Online game record.',
  'record/unknown_version': (p) =>
    `This game record was written in a format version${typeof p.version === 'number' ? ` (${p.version})` : ''} this page does not know; a newer version of the site may read it.`,
  'record/not_replayable':
    "This record is one player's view of a world still in play: it holds only what they saw and cannot be played again.",
  'record/rules_mismatch': 'This game was recorded under other rules than the ones this site plays.',
  'record/map_mismatch': 'This game was recorded on another map than the one this site uses.',
  'record/setup_refused': "The game's set-up in this record is not one the rules accept.",
  'record/order_refused': (p) =>
    `An order of this record${typeof p.seq === 'number' ? ` (number ${p.seq})` : ''} is not allowed where the replay reaches it: the record does not match its game.`,
  'record/hash_mismatch':
    'Replayed, this record ends in another position than the one it says: it does not match its game.',
  // A shared position (an analysis board's link): what is wrong with the link, in a sentence.
  'position/unreadable': (p) =>
    `This link does not hold a position this page can read${typeof p.message === 'string' ? ` (${p.message})` : ''}. Ask for the link again, copied whole.`,
  'position/unknown_format': 'This link does not hold a BKE Online position.',
  'position/unknown_version': (p) =>
    `This position was written in a format version${typeof p.version === 'number' ? ` (${p.version})` : ''} this page does not know; a newer version of the site may read it.`,
  'position/invalid': (p) =>
    `This link's position does not fit the format of a position${typeof p.message === 'string' && !p.message.includes('position/') ? ` (${p.message})` : ''}.`,
  'position/map_mismatch': 'This position is on another map than the one this site uses.',
  'position/unplayable': (p) =>
    `The rules cannot play this position${typeof p.message === 'string' && !p.message.includes('position/') ? ` (${p.message})` : ''}.`,
  'net/offline': 'The server cannot be reached. Check your connection.',
  'net/timeout': 'The server did not answer in time; your order may not have arrived.',
  'net/bad_answer': (p) =>
    `The server answered in a way this page does not understand${typeof p.status === 'number' ? ` (status ${p.status})` : ''}; reload the page.`,
};

/** An error as a sentence: the code's words with its parameters; an unheard-of code falls back to the message. */
export function errorWords(e: { readonly code: ClientErrorCode; readonly [param: string]: unknown }): string {
  const w = (ERROR_WORDS as Record<string, string | ((p: Params) => string) | undefined>)[e.code];
  if (typeof w === 'function') return w(e);
  if (w) return w;
  // Never the code itself: a message that only repeats it is no sentence for a player either.
  return typeof e.message === 'string' && e.message && !e.message.includes(e.code)
    ? e.message
    : 'Something went wrong on our side. Try again, or reload the page.';
}

/** A step in words: a game's step, or a world's (the lobby's `{ kind, phase }`). */
export function stepWords(step: { readonly kind: StepKind; readonly phase?: PlayerPhase }): string {
  switch (step.kind) {
    case 'idle':
      return 'Waiting for players';
    case 'entry':
      return 'New barbarians choose where to start';
    case 'playerTurn':
      return step.phase ? PHASE_WORDS[step.phase].name : 'A player turn';
    case 'economic':
      return 'Economic phase';
    case 'administration':
      return 'Administration';
  }
}

type Names = { player(id: unknown): string; area(id: unknown): string; unit(id: unknown): string };

const list = (xs: string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The player an event is about, when it names one as `player`. */
export const eventPlayer = (e: WorldEvent): string | undefined => ('player' in e ? e.player : undefined);

/** One event as a sentence, or null for bookkeeping events a reader does not need. */
export function eventWords(e: WorldEvent, n: Names): string | null {
  const p = n.player(eventPlayer(e));
  switch (e.type) {
    case 'playerJoined':
      return `${p} joined the world and enters on turn ${e.turn}.`;
    case 'playerLeft':
      return `${p} left the world.`;
    case 'turnStarted':
      return `Turn ${e.turn} begins.`;
    case 'worldRolledBack':
      return `A moderator returned the world to the start of turn ${e.turn}: everything played after that was undone.`;
    case 'turnEnded':
      return `Turn ${e.turn} is over.`;
    case 'worldEnded':
      return e.reason === 'date'
        ? `The world has reached its end date: play stops after turn ${e.turn}, and the final table stands.`
        : `The world has reached its last turn: play stops, and the final table stands.`;
    case 'moveOrderRolled': {
      const d = arr(e.dice).map(Number);
      return `${p} rolled ${d.join('+')} for the order of play.`;
    }
    case 'ledgerRow':
      return null;
    case 'moveOrderFixed':
      return `Order of play: ${list(arr(e.order).map((x) => n.player(x)))}.`;
    case 'cycleStarted':
      return `${p} raises a new horde at ${e.position} (${n.area(e.area)}).`;
    case 'startUnavailable':
      return `${p} found no free start area this turn.`;
    case 'phaseStarted':
      return null;
    case 'tribesCombined':
      return `${p} combined two tribes in ${n.area(e.area)}.`;
    case 'tribeSplit':
      return `${p}'s tribe in ${n.area(e.area)} split in two.`;
    case 'unitMoved': {
      const path = arr(e.path);
      return `${p} moved ${n.unit(e.unit)} to ${n.area(path[path.length - 1])}.`;
    }
    case 'seaCrossingRolled':
      return `${p}'s tribe tried to cross ${n.area(e.sea)} (die ${e.die}): ${e.success ? 'it landed safely' : 'it was lost at sea'}.`;
    case 'unitsRemoved':
      return `${p} lost ${count(arr(e.units).length, 'unit')} (${REMOVAL_WORDS[String(e.reason)] ?? String(e.reason)}).`;
    case 'unitCreated': {
      const made = list(arr(e.kinds).map((k) => unitWords(String(k)).name.toLowerCase()));
      const lost = arr(e.lost).length;
      const where = `A combined pair of ${p} in ${n.area(e.area)}`;
      // A ship rolled away from the coast cannot be placed (9.1): say so rather than list nothing.
      if (!made)
        return `${where} rolled a ship (die ${e.die}), which cannot be placed inland: nothing was created.`;
      return `${where} became ${made} (die ${e.die})${lost ? '; the ship it also rolled cannot be placed inland' : ''}.`;
    }
    case 'economicPhaseStarted':
      return `The economic phase of turn ${e.turn} begins.`;
    case 'cityOwnerChanged':
      return `${n.area(e.area)} now belongs to ${e.to ? n.player(e.to) : 'no one'}.`;
    case 'taxCollected':
      return `${p} collected ${e.tax} in taxes from ${count(arr(e.cities).length, 'city', 'cities')}.`;
    case 'cityPillaged':
      return `${p} pillaged ${n.area(e.area)} for ${e.loot}; it yields nothing until a turn ending in ${e.digit}.`;
    case 'vpGained':
      return `${p} gains ${e.vp} victory points (${e.total} this cycle).`;
    case 'administrationStarted':
      return `Administration of turn ${e.turn}.`;
    case 'markerRemoved':
      return `The pillage marker in ${n.area(e.area)} is removed${e.flippedToNeutral ? ' and a neutral garrison takes its place' : ''}.`;
    case 'continuityChecked':
      return Number(e.groups) > 1
        ? `${p}'s tribes were split into ${e.groups} groups; the cut-off ones are lost.`
        : null;
    case 'unrestRolled':
      return `${p} rolled ${e.die} for tribal unrest: ${e.unrest ? `unrest, ${e.loss ?? 0} units lost` : 'calm'}.`;
    case 'countdownStarted':
      return `${p} has ${e.units} units: the kingdom countdown starts and ends on turn ${e.kingdomTurn}.`;
    case 'becameKingdom':
      return `${p}'s horde became a kingdom${e.capital ? ` with its capital at ${n.area(e.capital)}` : ''}.`;
    case 'becameEmpire':
      return `${p}'s kingdom became an empire.`;
    case 'cycleEnded':
      return `${p}'s cycle ended (${CYCLE_END_WORDS[String(e.reason)] ?? String(e.reason)}) with ${e.vp} victory points.`;
    case 'neutralPlaced':
      return `A neutral garrison of strength ${e.strength} holds ${n.area(e.area)}.`;
    case 'neutralRemoved':
      return e.reason === 'persianStart'
        ? `The neutral garrison in ${n.area(e.area)} is gone: Persia is open to its new kingdom.`
        : `The neutral garrison in ${n.area(e.area)} is gone.`;
    case 'persianArmyPlaced': {
      const units = arr(e.units) as { kind?: unknown; area?: unknown }[];
      const areas = [...new Set(units.map((u) => n.area(u.area)))];
      return `${p} sets up its Persian army: ${list(units.map((u) => unitWords(String(u.kind)).name.toLowerCase()))}, with its leader, in ${list(areas)}.`;
    }
    case 'leaderEliminated':
      return `A leader fell in ${n.area(e.area)}.`;
    default:
      return e.type.startsWith('combat') ? combatWords(e, n) : realmWords(e, n);
  }
}

const REMOVAL_WORDS: Record<string, string> = {
  overstack: 'too many in one area',
  tribeLimit: 'tribe limit',
  continuity: 'cut off from the horde',
  unrest: 'tribal unrest',
  conversion: 'becoming a kingdom',
  abandon: 'position abandoned',
  desert: 'desert',
  seaCrossing: 'sea crossing',
  lostAtSea: 'lost at sea',
  upkeep: 'upkeep unpaid',
  combat: 'combat',
};

const CYCLE_END_WORDS: Record<string, string> = {
  abandoned: 'abandoned',
  eliminated: 'wiped out',
  left: 'the player left',
  collapsed: 'complete collapse',
};

/** Combat facts: who attacked where, the odds column, the dice and the result. */
function combatWords(e: WorldEvent, n: Names): string | null {
  switch (e.type) {
    case 'combatResolved': {
      const dice = Array.isArray(e.dice) ? e.dice.map(Number) : null;
      const whom = e.defender ? n.player(e.defender) : 'the neutral garrison';
      const roll = dice ? `, rolled ${dice.join('+')} = ${dice.reduce((a, b) => a + b, 0)}` : '';
      const result = RESULT_WORDS[String(e.result)] ?? String(e.result);
      return `${n.player(e.attacker)} attacked ${whom} in ${n.area(e.target)} at ${e.odds}${roll}: ${result}.`;
    }
    case 'combatUnitsEliminated':
      return `${n.player(e.player)} lost ${count(arr(e.units).length, 'unit')}${e.area ? ` in ${n.area(e.area)}` : ''}.`;
    case 'combatNeutralEliminated':
      return `The neutral garrison in ${n.area(e.area)} was destroyed.`;
    case 'combatNeutralRegenerated':
      return `The neutral garrison in ${n.area(e.area)} is back at strength ${e.strength}.`;
    case 'combatRetreated':
      return e.eliminated
        ? `${n.player(e.player)} lost a ${n.unit(e.unit)} that could not retreat far enough.`
        : `${n.player(e.player)}'s ${n.unit(e.unit)} retreated to ${n.area(arr(e.path).at(-1))}.`;
    case 'combatAdvanced':
      return `${n.player(e.player)}'s ${n.unit(e.unit)} ${e.pursuit ? 'pursued' : 'advanced'} into ${n.area(e.to)}.`;
    case 'combatPhaseEnded':
      return null;
    default:
      return null;
  }
}

/** Combat Results Table outcomes (7.2): the number is how many areas the loser falls back. */
export const RESULT_WORDS: Record<string, string> = {
  AE: 'attacker eliminated (AE)',
  AR3: 'attacker retreats 3 areas (AR3)',
  AR2: 'attacker retreats 2 areas (AR2)',
  AR1: 'attacker retreats 1 area (AR1)',
  EX: 'exchange — both sides lose (EX)',
  DR1: 'defender retreats 1 area (DR1)',
  DR2: 'defender retreats 2 areas (DR2)',
  DR3: 'defender retreats 3 areas (DR3)',
  DE: 'defender eliminated (DE)',
};

/** Kingdom and empire facts (10, 11): taxes, upkeep, purchases, administration and rebellions. */
function realmWords(e: WorldEvent, n: Names): string | null {
  const p = n.player(eventPlayer(e));
  switch (e.type) {
    case 'realmTaxCollected':
      return `${p} collected ${e.tax} in taxes${Number(e.other) ? ` and ${e.other} more` : ''}.`;
    case 'upkeepPaid':
      return `${p} paid ${e.upkeep} upkeep${arr(e.disbanded).length ? ` and disbanded ${count(arr(e.disbanded).length, 'unit')} it could not pay` : ''}.`;
    case 'unitsPurchased':
      return `${p} bought ${count(arr(e.units).length, 'unit')} for ${e.cost}.`;
    case 'administrationBought':
      return `${p} spent ${e.cost} on administration (the ${e.percent}% column).`;
    case 'administrationRolled': {
      const d = arr(e.dice).map(Number);
      const result =
        typeof e.result === 'number'
          ? `it reads ${e.result}`
          : ({
              goodRuler: 'Good Ruler',
              corruption: 'Corruption',
              rebellion: 'Rebellion',
              revival: 'Revival',
            }[String(e.result)] ?? String(e.result));
      return `${p} rolled ${d.join('+')} on the ${e.percent}% administration column: ${result}.`;
    }
    case 'becameEmpire':
      return `${p}'s kingdom became an empire.`;
    case 'rebellionRolled': {
      const d = arr(e.dice).map(Number);
      const cause = REBELLION_CAUSE_WORDS[String(e.cause)] ?? String(e.cause);
      const result = REBELLION_RESULT_WORDS[String(e.result)] ?? String(e.result);
      return `Rebellion in ${p}'s realm (${cause}): rolled ${d.join('+')}: ${result}.`;
    }
    case 'citiesRevolted':
      return `${arr(e.cities)
        .map((c) => n.area(c))
        .join(', ')} revolted against ${p}.`;
    case 'treasuryLost':
      return `${p} lost ${e.amount} from the treasury.`;
    case 'capitalCaptured':
      return `${n.player(e.by)} captured ${p}'s capital ${n.area(e.area)} and took ${e.plunder} in plunder.`;
    case 'capitalPlaced':
      return e.area ? `${p}'s capital is now ${n.area(e.area)}.` : `${p} has no capital on the map.`;
    case 'unitDefected':
      return `A unit of ${n.player(e.from)} went over to ${n.player(e.to)}.`;
    case 'revival':
      return `${p}'s realm revives.`;
    case 'realmUnitsRemoved':
    case 'unsupportedRemoved':
      return `${p} lost ${count(arr(e.units).length, 'unit')}.`;
    case 'shipSinkingRolled':
      return `${p}'s ship ${e.sunk ? 'sank' : 'stayed afloat'} (die ${e.die}).`;
    case 'tributePaid':
      return `${n.player(e.from)} paid ${n.player(e.to)} ${e.amount} in tribute.`;
    case 'unitAuctioned':
      return `${n.player(e.auctioneer)} sold a unit at auction to ${n.player(e.winner)} for ${e.bid}.`;
    case 'shipIntercepted':
      return `${n.player(e.by)} intercepted ${p}'s ship in ${n.area(e.sea)} at ${e.odds}, rolled ${arr(e.dice).map(Number).join('+')}: ${String(e.result)}.`;
    case 'leaderTypeRolled':
      return `${p}'s leader is ${humanWord(String(e.leaderType))} (die ${e.die}).`;
    case 'coupDeclared':
      return `A coup in ${p}'s realm.`;
    case 'combatLeaderCaptured':
      return `${n.player(e.captor)} captured a leader in ${n.area(e.area)}.`;
    case 'leaderCaptured':
      return `${n.player(e.captor)} captured ${n.player(e.owner)}'s leader.`;
    case 'leaderFreed':
      return `${n.player(e.owner)}'s leader is free again.`;
    case 'ransomOffered':
      return `${n.player(e.captor)} demands ${e.amount} in ransom for ${n.player(e.owner)}'s leader.`;
    case 'ransomPaid':
      return `${n.player(e.owner)} paid ${e.amount} in ransom and has its leader back.`;
    case 'leaderExecuted':
      return `${n.player(e.captor)} executed ${n.player(e.owner)}'s captured leader.`;
    case 'prisonerMoved':
      return `${n.player(e.captor)} moved a prisoner to another unit.`;
    case 'leaseOffered':
      return `${n.player(e.owner)} offers ${count(arr(e.units).length, 'unit')} to ${n.player(e.hirer)} as mercenaries for ${e.price}.`;
    case 'leaseAccepted':
      return `${n.player(e.hirer)} accepted ${n.player(e.owner)}'s mercenaries for ${e.price}.`;
    case 'leaseStarted':
      return `${n.player(e.owner)}'s ${count(arr(e.units).length, 'unit')} now serve ${n.player(e.hirer)} as mercenaries. ${n.player(e.hirer)} paid ${e.price} for them.`;
    case 'leaseEnded':
      // 13.4: a running lease ends at the next turn start; an offer not yet in force goes at once.
      return e.atTurnStart
        ? `${n.player(e.by)} ends the mercenary agreement between ${n.player(e.owner)} and ${n.player(e.hirer)}: the units go home at the start of the next turn.`
        : `The mercenary agreement between ${n.player(e.owner)} and ${n.player(e.hirer)} is over.`;
    case 'leaseLapsed':
      // 13.4: an accepted lease starts only if the hirer can still pay and both still qualify.
      return `The mercenary agreement between ${n.player(e.owner)} and ${n.player(e.hirer)} did not start: the price could not be paid, or one of them may no longer make it.`;
    case 'leaseDissolved': {
      const home = arr(e.units).length;
      const who = `${n.player(e.owner)}'s mercenaries in ${n.player(e.hirer)}'s service`;
      if (e.reason === 'ownerGone') return `${who} left the board: their owner's position is gone.`;
      if (e.reason === 'hirerGone') return `${who} went home: the hirer's position is gone.`;
      return home
        ? `${count(home, 'unit')} of ${who} went home.`
        : `The mercenary agreement between ${n.player(e.owner)} and ${n.player(e.hirer)} is over.`;
    }
    case 'mercenaryPillage':
      return `${n.player(e.hirer)}'s mercenaries pillaged ${n.area(e.area)} for ${e.loot}.`;
    case 'combatShipSinkingRolled':
      return `${p}'s retreating ship ${e.sunk ? 'sank' : 'stayed afloat'} (die ${e.die}${Number(e.modifier) ? `, ${Number(e.modifier) > 0 ? '+' : ''}${e.modifier}` : ''}).`;
    case 'navalLandingDeclared':
      return `${p}'s ship waits off ${n.area(e.target)} with ${count(arr(e.cargo).length, 'unit')} to land.`;
    case 'navalLanded':
      return `${p} landed ${count(arr(e.units).length, 'unit')} in ${n.area(e.target)}.`;
    case 'navalLandingFailed':
      return `${p}'s landing in ${n.area(e.target)} failed.`;
    case 'combatShipCaptured':
      return `${p} captured an enemy ship in ${n.area(e.area)}.`;
    default:
      return null;
  }
}

/** Why the engine would refuse an economic plan (`realmPlanCost` problem / `order/invalid` reason). */
const PLAN_PROBLEM_WORDS: Record<string, string> = {
  cannotAfford: 'This plan costs more than the money available.',
  badColumn: 'That administration column is not available.',
  badPurchase: 'One of the purchases cannot be placed there.',
  badCapital: 'The capital cannot go there.',
  disbandNotMinimal: 'Only as many units as upkeep requires may be disbanded for it.',
  disbandLeavesUnsupported: 'Disbanding those garrisons would leave other units unsupported.',
  garrisonNotIsolated: 'Only isolated garrisons may be disbanded at will.',
  duplicate: 'A unit is listed twice.',
  notYourUnit: 'That unit is not yours.',
};

export const planProblemWords = (reason: string): string =>
  PLAN_PROBLEM_WORDS[reason] ?? `The plan cannot be made (${reason}).`;

/** "goodRuler" → "good ruler" (a vocabulary word shown as text). */
function humanWord(w: string): string {
  return w.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A kingdom's or empire's pending choice as the view shows it (`realm.pending`). */
export interface PendingRealmChoice {
  readonly kind: string;
  readonly reason?: string;
  readonly count?: number;
  readonly target?: number;
  readonly upTo?: boolean;
  readonly rebel?: string;
}

/** The heading of a pending rebellion, revival or empire choice, in words (null: no pending choice). */
export function realmChoiceWords(c: PendingRealmChoice | null | undefined, rebel: string): string | null {
  if (!c) return null;
  const n = c.count ?? 1;
  const units = `${c.upTo ? 'up to ' : ''}${n} unit${n === 1 ? '' : 's'}`;
  switch (c.kind) {
    case 'units':
      switch (c.reason) {
        case 'mercenariesGoHome':
          return `Rebellion — mercenaries go home: choose ${units} to leave`;
        case 'armyMutiny':
          return `Rebellion — army mutiny: choose ${units} to remove`;
        case 'defection':
          return `Rebellion — defection: choose the unit of ${rebel} that joins you (or none)`;
        case 'garrisonsRemoval':
          return `Garrisons removed: choose ${units}`;
        case 'financialDisaster':
          return `Rebellion — financial disaster: choose ${units} to disband`;
        default:
          return `Choose ${units}`;
      }
    case 'province':
      return 'Rebellion: choose the province that revolts';
    case 'cities':
      return c.reason === 'pirates'
        ? 'Rebellion — pirates: choose the city they pillage'
        : `Rebellion — civil disorder: choose cities worth at least ${c.target ?? '?'} that revolt`;
    case 'capital':
      return c.reason === 'revival'
        ? 'Revival: you may move your capital'
        : 'Your capital was taken: choose where the new one goes';
    case 'garrisons':
      return 'Your kingdom becomes an empire: choose which infantry become garrisons';
    default:
      return null;
  }
}

/** Why the Rebellion Table was rolled (11.7). */
const REBELLION_CAUSE_WORDS: Record<string, string> = {
  administration: 'an administration result',
  empireNumber: "an empire's administration number",
  capitalLoss: 'the loss of its capital',
};

/** The Rebellion Table's results (11.7.2), as the event log says them. */
const REBELLION_RESULT_WORDS: Record<string, string> = {
  mercenaryDefection: 'mercenaries defect to a barbarian',
  financialDisaster: 'financial disaster',
  pirateAttack: 'pirates attack a city',
  provincialRebellion: 'a province rebels',
  civilDisorder: 'civil disorder',
  completeCollapse: 'complete collapse',
  mercenariesGoHome: 'mercenaries go home',
  armyMutiny: 'army mutiny',
  provincialRebellionNotSmallest: 'a province rebels (not the smallest)',
  attemptedCoup: 'an attempted coup',
  rebellionAndRevival: 'rebellion and revival',
};
