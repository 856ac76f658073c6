/**
 * Turns labelled pixels into SVG outlines. A region's outline runs along pixel edges; each point is then
 * moved to the midpoint of its pixel edge (which cuts the staircase corners the way marching squares
 * does) and straight runs are simplified. Two neighbouring regions share their pixel edges, so their
 * outlines coincide up to the simplification tolerance.
 */

type Pt = [number, number];

const EPSILON = 0.35;

function fmt(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
}

function perpendicular(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return Math.hypot(p[0] - a[0], p[1] - a[1]);
  return Math.abs(dy * p[0] - dx * p[1] + b[0] * a[1] - b[1] * a[0]) / len;
}

/** Douglas-Peucker on an open polyline (endpoints kept). */
function simplify(points: readonly Pt[], epsilon: number): Pt[] {
  if (points.length < 3) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [s, e] = stack.pop() as [number, number];
    let worst = -1;
    let at = -1;
    for (let i = s + 1; i < e; i++) {
      const d = perpendicular(points[i] as Pt, points[s] as Pt, points[e] as Pt);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    if (worst > epsilon && at > 0) {
      keep[at] = 1;
      stack.push([s, at], [at, e]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** Closed ring: split at the point farthest from the first, simplify both halves. */
function simplifyRing(ring: readonly Pt[], epsilon: number): Pt[] {
  if (ring.length < 4) return [...ring];
  const first = ring[0] as Pt;
  let far = 0;
  let farD = -1;
  ring.forEach((p, i) => {
    const d = Math.hypot(p[0] - first[0], p[1] - first[1]);
    if (d > farD) {
      farD = d;
      far = i;
    }
  });
  const a = simplify(ring.slice(0, far + 1), epsilon);
  const b = simplify([...ring.slice(far), first], epsilon);
  return [...a, ...b.slice(1, -1)];
}

function ringPath(ring: readonly Pt[]): string {
  let d = '';
  ring.forEach((p, i) => {
    d += `${i === 0 ? 'M' : 'L'}${fmt(p[0])} ${fmt(p[1])}`;
  });
  return `${d}Z`;
}

function linePath(line: readonly Pt[]): string {
  let d = '';
  line.forEach((p, i) => {
    d += `${i === 0 ? 'M' : 'L'}${fmt(p[0])} ${fmt(p[1])}`;
  });
  return d;
}

/**
 * The outline of the pixels for which `inside` holds, within the bounding box, as an SVG path.
 * Directed pixel edges keep the region on the right (clockwise on screen), so holes run the other way
 * and the nonzero fill rule draws them correctly.
 */
export function outline(
  width: number,
  inside: (i: number) => boolean,
  box: { x0: number; y0: number; x1: number; y1: number },
): string {
  const W = width + 1;
  // edge list: from-vertex -> to-vertex, indexed by from-vertex (at most two outgoing per vertex)
  const next = new Map<number, number[]>();
  const add = (fx: number, fy: number, tx: number, ty: number) => {
    const f = fy * W + fx;
    const list = next.get(f);
    if (list) list.push(ty * W + tx);
    else next.set(f, [ty * W + tx]);
  };
  const at = (x: number, y: number) => x >= 0 && y >= 0 && x < width && inside(y * width + x);
  for (let y = box.y0; y <= box.y1; y++) {
    for (let x = box.x0; x <= box.x1; x++) {
      if (!at(x, y)) continue;
      if (!at(x, y - 1)) add(x, y, x + 1, y);
      if (!at(x + 1, y)) add(x + 1, y, x + 1, y + 1);
      if (!at(x, y + 1)) add(x + 1, y + 1, x, y + 1);
      if (!at(x - 1, y)) add(x, y + 1, x, y);
    }
  }
  const rings: string[] = [];
  const starts = [...next.keys()].sort((a, b) => a - b);
  for (const start of starts) {
    while ((next.get(start)?.length ?? 0) > 0) {
      const verts: number[] = [start];
      let cur = start;
      let prev = -1;
      for (;;) {
        const outs = next.get(cur);
        if (!outs || outs.length === 0) break;
        let pick = 0;
        if (outs.length > 1 && prev >= 0) {
          // at a saddle keep turning right so diagonal neighbours stay separate rings
          const dx = (cur % W) - (prev % W);
          const dy = Math.floor(cur / W) - Math.floor(prev / W);
          const rx = -dy;
          const ry = dx;
          pick = outs.findIndex(
            (o) => (o % W) - (cur % W) === rx && Math.floor(o / W) - Math.floor(cur / W) === ry,
          );
          if (pick < 0) pick = 0;
        }
        const to = outs.splice(pick, 1)[0] as number;
        prev = cur;
        cur = to;
        if (cur === start) break;
        verts.push(cur);
      }
      if (verts.length < 3) continue;
      const mids: Pt[] = verts.map((v, i) => {
        const w = verts[(i + 1) % verts.length] as number;
        return [((v % W) + (w % W)) / 2, (Math.floor(v / W) + Math.floor(w / W)) / 2];
      });
      const ring = simplifyRing(mids, EPSILON);
      if (ring.length >= 3) rings.push(ringPath(ring));
    }
  }
  return rings.join('');
}

/**
 * Lines along the pixel edges that separate two classes of pixels (for example inside and outside the
 * empire), chained into polylines and smoothed like outlines. `classOf` returns -1 for pixels that
 * draw no line (sea, off-board).
 */
export function borderLines(width: number, height: number, classOf: (i: number) => number): string {
  const W = width + 1;
  const adj = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    for (const [p, q] of [
      [a, b],
      [b, a],
    ] as const) {
      const list = adj.get(p);
      if (list) list.push(q);
      else adj.set(p, [q]);
    }
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = classOf(y * width + x);
      if (c < 0) continue;
      if (x + 1 < width) {
        const r = classOf(y * width + x + 1);
        if (r >= 0 && r !== c) link(y * W + x + 1, (y + 1) * W + x + 1);
      }
      if (y + 1 < height) {
        const d = classOf((y + 1) * width + x);
        if (d >= 0 && d !== c) link((y + 1) * W + x, (y + 1) * W + x + 1);
      }
    }
  }
  const used = new Set<string>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  const lines: string[] = [];
  const walk = (start: number) => {
    for (const first of adj.get(start) ?? []) {
      if (used.has(key(start, first))) continue;
      const verts = [start];
      let prev = start;
      let cur = first;
      used.add(key(prev, cur));
      for (;;) {
        verts.push(cur);
        const outs = (adj.get(cur) ?? []).filter((n) => !used.has(key(cur, n)));
        if (outs.length === 0 || (adj.get(cur)?.length ?? 0) !== 2) break;
        const n = outs[0] as number;
        used.add(key(cur, n));
        prev = cur;
        cur = n;
      }
      const pts: Pt[] = [[verts[0]! % W, Math.floor(verts[0]! / W)]];
      for (let i = 0; i + 1 < verts.length; i++) {
        const v = verts[i] as number;
        const w = verts[i + 1] as number;
        pts.push([((v % W) + (w % W)) / 2, (Math.floor(v / W) + Math.floor(w / W)) / 2]);
      }
      const last = verts[verts.length - 1] as number;
      pts.push([last % W, Math.floor(last / W)]);
      if (pts.length >= 2) lines.push(linePath(simplify(pts, EPSILON)));
    }
  };
  const vertices = [...adj.keys()].sort((a, b) => a - b);
  for (const v of vertices) if ((adj.get(v)?.length ?? 0) !== 2) walk(v);
  for (const v of vertices) walk(v);
  return lines.join('');
}
