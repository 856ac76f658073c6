/**
 * Telling players it is their move when they are not looking at the page: the tab's title, and —
 * once they allow it — a browser notification when a world they have open starts waiting for them
 * while the tab is hidden. Games last days; nobody watches the screen for them.
 */

const KEY = 'bke.notify';
const BASE_TITLE = 'BKE Online';

/** The tab title: the worlds waiting for this player first, so a row of tabs shows it. */
export function titleFor(page: string | null, movesWaiting: number): string {
  const base = page ? `${page} — ${BASE_TITLE}` : BASE_TITLE;
  if (movesWaiting <= 0) return base;
  return page ? `▶ Your move · ${base}` : `(${movesWaiting}) ${base}`;
}

/** Whether a change of "my move" deserves a notification. */
export function shouldNotify(was: boolean, now: boolean, hidden: boolean, allowed: boolean): boolean {
  return !was && now && hidden && allowed;
}

type NotificationLike = { permission: string; requestPermission(): Promise<string> };
const notifications = (): NotificationLike | null =>
  typeof globalThis.Notification === 'function'
    ? (globalThis.Notification as unknown as NotificationLike)
    : null;

function stored(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

class Attention {
  /** The player asked for notifications (and the browser may show them). */
  wanted = $state(stored());
  permission = $state(notifications()?.permission ?? 'unsupported');

  get supported(): boolean {
    return notifications() !== null;
  }

  get on(): boolean {
    return this.wanted && this.permission === 'granted';
  }

  /** Asks the browser (it must be called from a click) and remembers the choice. */
  async enable(): Promise<void> {
    const n = notifications();
    if (!n) return;
    this.permission = n.permission === 'granted' ? 'granted' : await n.requestPermission();
    this.remember(this.permission === 'granted');
  }

  disable(): void {
    this.remember(false);
  }

  private remember(on: boolean) {
    this.wanted = on;
    try {
      globalThis.localStorage?.setItem(KEY, on ? '1' : '0');
    } catch {
      // Private mode: the choice lasts as long as the page.
    }
  }

  private lastMine = new Map<string, boolean>();

  /**
   * The open world's state, on every change: sets the title and notifies when the world has just
   * started waiting for this player while the page is hidden.
   */
  world(id: string, name: string, mine: boolean, detail: string): void {
    document.title = titleFor(name, mine ? 1 : 0);
    const was = this.lastMine.get(id) ?? false;
    this.lastMine.set(id, mine);
    if (!shouldNotify(was, mine, document.hidden, this.on)) return;
    try {
      const n = new Notification(`Your move in ${name}`, { body: detail, tag: `bke-${id}` });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some browsers only notify from a service worker; the title still says it.
    }
  }

  /** The lobby: how many worlds wait for this player. */
  lobby(movesWaiting: number): void {
    document.title = titleFor(null, movesWaiting);
  }

  /** Leaving a page: the plain title again. */
  reset(): void {
    document.title = BASE_TITLE;
  }
}

export const attention = new Attention();
