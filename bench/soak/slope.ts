/** The growth a series shows after its warm-up: a least-squares line through its samples. */
export interface Growth {
  /** The fitted line's value at the first and the last sample after warm-up. */
  from: number;
  to: number;
  /** (to − from) / from, in per cent (0 when from is 0). */
  percent: number;
}

export function growth(points: readonly { t: number; v: number }[]): Growth | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.v - mv);
    den += (p.t - mt) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  const t0 = points[0]?.t ?? 0;
  const t1 = points.at(-1)?.t ?? 0;
  const from = mv + slope * (t0 - mt);
  const to = mv + slope * (t1 - mt);
  return { from, to, percent: from === 0 ? 0 : ((to - from) / from) * 100 };
}
