/**
 * Hash routes, so the server serves one page and a reload keeps the screen:
 * #/ (lobby), #/login, #/signup, #/forgot, #/account, #/world/<id>[/<tab>], #/world/<id>/replay/<turn>/<seq>
 * (the replay at an order's step), #/atlas, #/record (a game record
 * opened from a file), #/analysis/<code> (a position shared from an analysis board), #/moderation (moderators
 * and admins), #/guide[/<section>] (the rules guide), #/player/<name> (a profile),
 * #/leaderboard[/<pool>] (the ratings of one pool); and the pages links
 * in mail open: #/reset/<token>, #/verify/<token>; and a world's invitation link, #/invite/<token>.
 */
import { RATING_POOLS } from '@bke/protocol';
import type { RatingPool } from './ratings/pools.ts';

const isPool = (s: string): s is RatingPool => (RATING_POOLS as readonly string[]).includes(s);

type Route =
  | { name: 'lobby' }
  | { name: 'login' }
  | { name: 'signup' }
  | { name: 'account' }
  | { name: 'forgot' }
  | { name: 'reset'; token: string }
  | { name: 'verify'; token: string }
  /** A world's invitation link. */
  | { name: 'invite'; token: string }
  | { name: 'atlas' }
  /** A game record opened from a file. */
  | { name: 'record' }
  /** A position shared from an analysis board, its code in the address (analysis/share-link.ts). */
  | { name: 'analysis'; code: string }
  | { name: 'moderation' }
  /** The rules guide, opened at a rulebook section (e.g. '7.1'). */
  | { name: 'guide'; section: string | null }
  /** A player's public profile. */
  | { name: 'player'; username: string }
  /** The leaderboard of one rating pool. */
  | { name: 'leaderboard'; pool: RatingPool }
  /** A world's page; `at`: the replay opened at a game turn and the step of an order (its seq). */
  | { name: 'world'; id: string; tab: string | null; at?: { turn: number; seq: number } | null }
  | { name: 'notFound'; path: string };

function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: 'lobby' };
  const [head, id, tab] = parts;
  if (head === 'login' && !id) return { name: 'login' };
  if (head === 'signup' && !id) return { name: 'signup' };
  if (head === 'account' && !id) return { name: 'account' };
  if (head === 'forgot' && !id) return { name: 'forgot' };
  if (head === 'reset' && id && !tab) return { name: 'reset', token: id };
  if (head === 'verify' && id && !tab) return { name: 'verify', token: id };
  if (head === 'invite' && id && !tab) return { name: 'invite', token: id };
  if (head === 'atlas' && !id) return { name: 'atlas' };
  if (head === 'record' && !id) return { name: 'record' };
  if (head === 'analysis' && id && !tab) return { name: 'analysis', code: id };
  if (head === 'moderation' && !id) return { name: 'moderation' };
  if (head === 'guide' && !tab) return { name: 'guide', section: id ?? null };
  if (head === 'player' && id && !tab) return { name: 'player', username: id };
  if (head === 'leaderboard' && !tab && (id === undefined || isPool(id)))
    return { name: 'leaderboard', pool: id ?? 'all' };
  if (head === 'world' && id && tab === 'replay' && parts.length === 5) {
    const [turn, seq] = parts.slice(3).map(Number);
    if (Number.isSafeInteger(turn) && Number.isSafeInteger(seq) && (turn ?? -1) >= 0 && (seq ?? -1) >= 0)
      return { name: 'world', id, tab, at: { turn: turn as number, seq: seq as number } };
  }
  if (head === 'world' && id) return { name: 'world', id, tab: tab ?? null };
  return { name: 'notFound', path };
}

function hrefOf(route: Route): string {
  switch (route.name) {
    case 'lobby':
      return '#/';
    case 'world':
      return `#/world/${encodeURIComponent(route.id)}${route.tab ? `/${route.tab}` : ''}${route.at ? `/${route.at.turn}/${route.at.seq}` : ''}`;
    case 'player':
      return `#/player/${encodeURIComponent(route.username)}`;
    case 'leaderboard':
      return route.pool === 'all' ? '#/leaderboard' : `#/leaderboard/${route.pool}`;
    case 'guide':
      return `#/guide${route.section ? `/${encodeURIComponent(route.section)}` : ''}`;
    case 'analysis':
      return `#/analysis/${encodeURIComponent(route.code)}`;
    case 'reset':
    case 'verify':
    case 'invite':
      return `#/${route.name}/${encodeURIComponent(route.token)}`;
    case 'notFound':
      return `#${route.path}`;
    default:
      return `#/${route.name}`;
  }
}

class Router {
  route = $state<Route>(parseRoute(typeof location === 'undefined' ? '' : location.hash));
  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('hashchange', () => {
        this.route = parseRoute(location.hash);
      });
    }
  }
  go(route: Route) {
    const href = hrefOf(route);
    if (location.hash !== href) location.hash = href;
    this.route = route;
  }
}

export const router = new Router();
