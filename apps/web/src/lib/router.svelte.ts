/**
 * Hash routes, so the server serves one page and a reload keeps the screen:
 * #/ (lobby), #/login, #/signup, #/forgot, #/account, #/world/<id>, #/atlas, #/moderation (moderators
 * and admins), #/guide[/<section>] (the rules guide), #/player/<name> (a profile); and the pages links
 * in mail open: #/reset/<token>, #/verify/<token>.
 */
export type Route =
  | { name: 'lobby' }
  | { name: 'login' }
  | { name: 'signup' }
  | { name: 'account' }
  | { name: 'forgot' }
  | { name: 'reset'; token: string }
  | { name: 'verify'; token: string }
  | { name: 'atlas' }
  | { name: 'moderation' }
  /** The rules guide, opened at a rulebook section (e.g. '7.1'). */
  | { name: 'guide'; section: string | null }
  /** A player's public profile. */
  | { name: 'player'; username: string }
  | { name: 'world'; id: string; tab: string | null }
  | { name: 'notFound'; path: string };

export function parseRoute(hash: string): Route {
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
  if (head === 'atlas' && !id) return { name: 'atlas' };
  if (head === 'moderation' && !id) return { name: 'moderation' };
  if (head === 'guide' && !tab) return { name: 'guide', section: id ?? null };
  if (head === 'player' && id && !tab) return { name: 'player', username: id };
  if (head === 'world' && id) return { name: 'world', id, tab: tab ?? null };
  return { name: 'notFound', path };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'lobby':
      return '#/';
    case 'world':
      return `#/world/${encodeURIComponent(route.id)}${route.tab ? `/${route.tab}` : ''}`;
    case 'player':
      return `#/player/${encodeURIComponent(route.username)}`;
    case 'guide':
      return `#/guide${route.section ? `/${encodeURIComponent(route.section)}` : ''}`;
    case 'reset':
    case 'verify':
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
