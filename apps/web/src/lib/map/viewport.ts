/**
 * Pan and zoom of the board as pure arithmetic, so wheel, drag, pinch and keys all share one
 * model and tests need no DOM. A viewport maps board coordinates to screen: screen = board·k + (x, y).
 */

export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

const MIN_ZOOM_FACTOR = 0.8;
export const MAX_ZOOM = 8;

/** The whole board centred in the screen. */
export function fit(board: Size, screen: Size): Viewport {
  const k = Math.min(screen.width / board.width, screen.height / board.height);
  return { k, x: (screen.width - board.width * k) / 2, y: (screen.height - board.height * k) / 2 };
}

/** Zoom by `factor` keeping the board point under (cx, cy) still; clamped between fit·0.8 and 8. */
export function zoomAt(v: Viewport, factor: number, cx: number, cy: number, minK: number): Viewport {
  const k = Math.min(MAX_ZOOM, Math.max(minK * MIN_ZOOM_FACTOR, v.k * factor));
  const f = k / v.k;
  return { k, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f };
}

export function panBy(v: Viewport, dx: number, dy: number): Viewport {
  return { k: v.k, x: v.x + dx, y: v.y + dy };
}

/** Keep at least a quarter of the screen covered by the board so it cannot be lost off-screen. */
export function clampPan(v: Viewport, board: Size, screen: Size): Viewport {
  const w = board.width * v.k;
  const h = board.height * v.k;
  const mx = screen.width / 4;
  const my = screen.height / 4;
  const x = Math.min(screen.width - mx, Math.max(mx - w, v.x));
  const y = Math.min(screen.height - my, Math.max(my - h, v.y));
  return { k: v.k, x, y };
}

export function toBoard(v: Viewport, sx: number, sy: number): [number, number] {
  return [(sx - v.x) / v.k, (sy - v.y) / v.k];
}

/** Two-finger pinch: the zoom follows the change in finger distance around their midpoint. */
export function pinch(
  v: Viewport,
  before: readonly [readonly [number, number], readonly [number, number]],
  after: readonly [readonly [number, number], readonly [number, number]],
  minK: number,
): Viewport {
  const dist = (p: typeof before) => Math.hypot(p[1][0] - p[0][0], p[1][1] - p[0][1]) || 1;
  const mid = (p: typeof before): [number, number] => [(p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2];
  const [bx, by] = mid(before);
  const [ax, ay] = mid(after);
  const zoomed = zoomAt(v, dist(after) / dist(before), bx, by, minK);
  return panBy(zoomed, ax - bx, ay - by);
}

/** Frame a box of the board (e.g. around a player's units), padded, no closer than `maxK`. */
export function fitBox(
  box: { x0: number; y0: number; x1: number; y1: number },
  screen: Size,
  pad: number,
  maxK: number,
): Viewport {
  const w = Math.max(1, box.x1 - box.x0 + 2 * pad);
  const h = Math.max(1, box.y1 - box.y0 + 2 * pad);
  const k = Math.min(maxK, screen.width / w, screen.height / h);
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  return { k, x: screen.width / 2 - cx * k, y: screen.height / 2 - cy * k };
}
