import { POSITION_ERROR_CODES } from '@bke/engine';
import { ERROR_CODES as ENGINE_ERROR_CODES } from '@bke/engine/types';
import type { GameEvent, GameView, Step } from '@bke/protocol';
import { ERROR_CODES, RECORD_ERROR_CODES, SERVER_ERROR_CODES } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { given } from '../test/fixtures.ts';
import {
  CLIENT_ERROR_CODES,
  ERROR_WORDS,
  errorWords,
  realmChoiceWords,
  eventWords as sentenceOf,
  stepWords as stepName,
  unitWords as unitOf,
} from './words.ts';

// Events, steps and views as the tests write them: only the fields the words read.
const eventWords = (e: object, n: typeof names) => sentenceOf(given<GameEvent>(e), n);
const stepWords = (s: object) => stepName(given<Step>(s));
const unitWords = (kind: string, view?: object) => unitOf(kind, given<GameView | undefined>(view));

const names = {
  player: (id: unknown) => ({ p1: 'Alaric', p2: 'Brenna' })[String(id)] ?? String(id),
  area: (id: unknown) => ({ rhenus: 'Rhenus', belgica: 'Belgica' })[String(id)] ?? String(id),
  unit: () => 'tribe',
};

describe('words', () => {
  it('turns a combat into a sentence with odds, dice and result', () => {
    const s = eventWords(
      {
        type: 'combatResolved',
        attacker: 'p1',
        defender: 'p2',
        target: 'rhenus',
        odds: '3-2',
        dice: [4, 3],
        result: 'DR2',
      },
      names,
    );
    expect(s).toBe(
      'Alaric attacked Brenna in Rhenus at 3-2, rolled 4+3 = 7: defender retreats 2 areas (DR2).',
    );
  });

  it('names a neutral defender', () => {
    const s = eventWords(
      {
        type: 'combatResolved',
        attacker: 'p1',
        defender: null,
        target: 'rhenus',
        odds: '1-1',
        dice: [1, 1],
        result: 'AE',
      },
      names,
    );
    expect(s).toContain('the neutral garrison');
    expect(s).toContain('attacker eliminated');
  });

  it('words pillage and kingdom events and hides bookkeeping', () => {
    expect(eventWords({ type: 'cityPillaged', player: 'p1', area: 'rhenus', loot: 9, digit: 7 }, names)).toBe(
      'Alaric pillaged Rhenus for 9; it yields nothing until a turn ending in 7.',
    );
    expect(eventWords({ type: 'phaseStarted', player: 'p1', phase: 'movement' }, names)).toBeNull();
    // The server's own fact in the log: a moderator's rollback.
    expect(eventWords({ type: 'worldRolledBack', turn: 4, toSeq: 80 }, names)).toBe(
      'A moderator returned the world to the start of turn 4: everything played after that was undone.',
    );
  });

  it('words a creation roll whose ship cannot be placed inland (9.1)', () => {
    const base = { type: 'unitCreated', player: 'p1', area: 'rhenus', die: 3, pair: [], units: [] };
    expect(eventWords({ ...base, kinds: [], lost: ['ship'] }, names)).toBe(
      'A combined pair of Alaric in Rhenus rolled a ship (die 3), which cannot be placed inland: nothing was created.',
    );
    expect(eventWords({ ...base, kinds: ['infantry'], lost: ['ship'] }, names)).toMatch(
      /became .+ \(die 3\); the ship it also rolled cannot be placed inland\.$/,
    );
  });

  it('words each way a mercenary agreement ends (13.4)', () => {
    const pair = { owner: 'p1', hirer: 'p2' };
    expect(eventWords({ type: 'leaseStarted', ...pair, units: ['u1', 'u2'], price: 5 }, names)).toBe(
      "Alaric's 2 units now serve Brenna as mercenaries. Brenna paid 5 for them.",
    );
    expect(eventWords({ type: 'leaseLapsed', ...pair }, names)).toContain('did not start');
    const gone = { type: 'leaseDissolved', ...pair, units: ['u1'] };
    expect(eventWords({ ...gone, reason: 'ended' }, names)).toBe(
      "1 unit of Alaric's mercenaries in Brenna's service went home.",
    );
    expect(eventWords({ ...gone, reason: 'ownerGone' }, names)).toContain('left the board');
    expect(eventWords({ ...gone, reason: 'hirerGone' }, names)).toContain("the hirer's position is gone");
    expect(eventWords({ ...gone, units: [], reason: 'ended' }, names)).toBe(
      'The mercenary agreement between Alaric and Brenna is over.',
    );
  });

  it('words the Persian start: the garrisons that leave and the army set up (13.2.3)', () => {
    expect(eventWords({ type: 'neutralRemoved', area: 'rhenus', reason: 'persianStart' }, names)).toBe(
      'The neutral garrison in Rhenus is gone: Persia is open to its new kingdom.',
    );
    const units = [
      { id: 'u2', kind: 'cavalry', area: 'rhenus' },
      { id: 'u3', kind: 'infantry', area: 'belgica' },
      { id: 'u4', kind: 'bow', area: 'rhenus' },
    ];
    expect(eventWords({ type: 'persianArmyPlaced', player: 'p1', units, leader: 'u5' }, names)).toBe(
      'Alaric sets up its Persian army: cavalry, infantry and bow, with its leader, in Rhenus and Belgica.',
    );
  });

  it("has words for every code a screen can meet: the engine's, the server's, the page's own, a record file's and a shared position's", () => {
    // The lists are the real sources: the engine's closed list, the server's, the page's codes, and
    // the refusals of a game record read from a file.
    const codes = [
      ...ENGINE_ERROR_CODES,
      ...SERVER_ERROR_CODES,
      ...CLIENT_ERROR_CODES,
      ...RECORD_ERROR_CODES,
      ...POSITION_ERROR_CODES,
    ];
    expect(ENGINE_ERROR_CODES.filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
    const words = ERROR_WORDS as Record<string, unknown>;
    expect(codes.filter((c) => !words[c])).toEqual([]);
    // Every code words itself, even without its parameters, in a sentence that does not name the code.
    for (const code of codes) {
      const s = errorWords({ code });
      expect(s, code).toMatch(/^[A-Z].*[.!?]$/);
      expect(s, code).not.toContain(code);
    }
    // Nothing in the words table that no list knows of (a renamed code leaves no stale words behind).
    expect(Object.keys(words).filter((c) => !(codes as string[]).includes(c))).toEqual([]);
  });

  it('turns error codes into words with their parameters, falling back to the server message', () => {
    expect(errorWords({ code: 'order/not_your_turn' })).toBe('It is not your turn to act.');
    expect(errorWords({ code: 'world/join_limit', limit: 3 })).toBe(
      'You have joined this world as often as one day allows (3 times). Try again tomorrow.',
    );
    expect(errorWords({ code: 'auth/slow_down', retryAfterSeconds: 1.2 })).toContain('Wait 2 seconds');
    expect(errorWords({ code: 'world/create_limit', per: 'account', limit: 5 })).toContain(
      'You have created',
    );
    const fromNetwork = errorWords({
      code: 'world/create_limit',
      per: 'address',
      limit: 20,
      retryAfterSeconds: 5400,
    });
    expect(fromNetwork).toContain('(20) were created from your network');
    expect(fromNetwork).toContain('in 90 minutes');
    expect(errorWords({ code: 'world/replay_busy', retryAfterSeconds: 3 })).toContain(
      'Try again in 3 seconds',
    );
    expect(errorWords({ code: 'http/rate_limited', retryAfterSeconds: 40 })).toContain('wait 40 seconds');
    expect(errorWords({ code: 'http/rate_limited', retryAfterSeconds: 900 })).toContain('wait 15 minutes');
    expect(errorWords({ code: 'http/rate_limited' })).toContain('wait a minute');
    expect(errorWords({ code: 'socket/rate_limited', retryAfterSeconds: 1 })).toContain('wait 1 second');
    expect(errorWords({ code: 'chat/too_fast', limit: 20, retryAfterSeconds: 12 })).toContain(
      'wait 12 seconds',
    );
    expect(errorWords({ code: 'order/wrong_count', expected: 1, got: 2 })).toBe(
      'Choose exactly 1 unit (you chose 2).',
    );
    expect(errorWords({ code: 'order/invalid', reason: 'cannotAfford' })).toBe(
      'This plan costs more than the money available.',
    );
    expect(errorWords({ code: 'auth/forbidden', reason: 'spectator' })).toContain('Spectators');
    // A code from a newer server than this page: its message, else plain words, never the code.
    const unheard = { code: 'world/unheard_of' } as unknown as { code: 'world/busy' };
    expect(errorWords({ ...unheard, message: 'Odd.' })).toBe('Odd.');
    expect(errorWords(unheard)).not.toContain('world/unheard_of');
    expect(errorWords({ ...unheard, message: 'The request was refused (world/unheard_of).' })).not.toContain(
      'world/unheard_of',
    );
    // A mute's end in local time; the year 9999 the server stores for "until lifted" reads "forever".
    expect(errorWords({ code: 'chat/muted', until: '9999-12-31T00:00:00.000Z' })).toBe(
      'A moderator has muted you in chat forever.',
    );
    expect(errorWords({ code: 'chat/muted', until: '2026-12-01T10:00:00.000Z' })).not.toContain(
      '2026-12-01T',
    );
  });

  it('names phases and counters', () => {
    expect(stepWords({ kind: 'playerTurn', player: 'p1', phase: 'combination', moved: [] })).toBe(
      'Tribal combination',
    );
    expect(unitWords('barbarianHorse').face).toBe('3-4');
    expect(unitWords('tribe', { options: { cfg: { tribeStrength: 2, tribeMA: 1 } } }).face).toBe('(2)-1');
  });

  it('tells agreements and captures in words (13.4, 13.6, 13.7)', () => {
    expect(eventWords({ type: 'tributePaid', from: 'p1', to: 'p2', amount: 3 }, names)).toBe(
      'Alaric paid Brenna 3 in tribute.',
    );
    expect(
      eventWords({ type: 'ransomOffered', leader: 'u9', owner: 'p1', captor: 'p2', amount: 5 }, names),
    ).toBe("Brenna demands 5 in ransom for Alaric's leader.");
    expect(
      eventWords({ type: 'leaseStarted', owner: 'p1', hirer: 'p2', units: ['u1', 'u2'], price: 4 }, names),
    ).toBe("Alaric's 2 units now serve Brenna as mercenaries. Brenna paid 4 for them.");
    // 13.4: a running lease ended by one side lasts until the next turn start; a withdrawn offer goes at once.
    const ended = { type: 'leaseEnded', owner: 'p1', hirer: 'p2', by: 'p2' };
    expect(eventWords({ ...ended, atTurnStart: true }, names)).toBe(
      'Brenna ends the mercenary agreement between Alaric and Brenna: the units go home at the start of the next turn.',
    );
    expect(eventWords({ ...ended, atTurnStart: false }, names)).toBe(
      'The mercenary agreement between Alaric and Brenna is over.',
    );
    expect(
      eventWords(
        { type: 'unitAuctioned', auctioneer: 'p2', unit: 'u5', winner: 'p1', bid: 6, newUnit: 'u40' },
        names,
      ),
    ).toBe('Brenna sold a unit at auction to Alaric for 6.');
  });

  it('names each pending realm choice (11.7.2 rebellion results, 10.6.2 revival, 11.1 garrisons)', () => {
    expect(realmChoiceWords({ kind: 'cities', reason: 'civilDisorder', target: 6 }, 'Alaric')).toBe(
      'Rebellion — civil disorder: choose cities worth at least 6 that revolt',
    );
    expect(realmChoiceWords({ kind: 'units', reason: 'defection', count: 1 }, 'Alaric')).toBe(
      'Rebellion — defection: choose the unit of Alaric that joins you (or none)',
    );
    expect(realmChoiceWords({ kind: 'capital', reason: 'revival' }, 'Alaric')).toBe(
      'Revival: you may move your capital',
    );
    expect(realmChoiceWords(null, 'Alaric')).toBeNull();
  });

  it('words the administration roll with its result (10.6.2)', () => {
    const roll = (result: string | number) =>
      eventWords({ type: 'administrationRolled', player: 'p1', percent: 20, dice: [2, 4], result }, names);
    expect(roll('goodRuler')).toBe('Alaric rolled 2+4 on the 20% administration column: Good Ruler.');
    expect(roll(7)).toBe('Alaric rolled 2+4 on the 20% administration column: it reads 7.');
  });

  it('words a Rebellion Table roll with its cause and result (11.7.2)', () => {
    expect(
      eventWords(
        {
          type: 'rebellionRolled',
          player: 'p1',
          dice: [2, 3],
          result: 'provincialRebellion',
          cause: 'empireNumber',
        },
        names,
      ),
    ).toBe("Rebellion in Alaric's realm (an empire's administration number): rolled 2+3: a province rebels.");
  });
});
