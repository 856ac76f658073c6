/**
 * A stable hash of a state (determinism checks, sim summaries, the hash kept with each snapshot):
 * two FNV-1a-style sums over the state's canonical JSON (keys sorted, undefined properties left
 * out). The hash is stored with snapshots and compared by `rebuild`, so its value never changes:
 * `hashState` is `hashOfText(canonicalJson(value))`, computed by walking the value and summing the
 * same characters as they would be written, without writing the text out (a 300-turn state is
 * about 450 KB of JSON, hashed at every snapshot).
 */

/** The canonical JSON of a value: object keys sorted, undefined properties left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** The two running sums, fed one character code at a time. */
class TextHash {
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193 ^ 0x5bd1e995;

  char(c: number): void {
    this.h1 = Math.imul(this.h1 ^ c, 0x01000193);
    this.h2 = Math.imul(this.h2 ^ c, 0x5bd1e995) ^ (this.h2 >>> 15);
  }

  text(s: string): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  digest(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, '0') + (this.h2 >>> 0).toString(16).padStart(8, '0');
  }
}

/** The hash of a text, as `hashState` sums a state's canonical JSON. */
export function hashOfText(s: string): string {
  const h = new TextHash();
  h.text(s);
  return h.digest();
}

const COMMA = 44;
const COLON = 58;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/** Sums `canonicalJson(value)` into `h`, character for character, without building it. */
function feed(h: TextHash, value: unknown): void {
  if (value === null || typeof value !== 'object') {
    h.text(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    h.char(OPEN_ARRAY);
    for (let i = 0; i < value.length; i++) {
      if (i > 0) h.char(COMMA);
      // `map` skips a hole and `join` writes it as nothing.
      if (i in value) feed(h, value[i]);
    }
    h.char(CLOSE_ARRAY);
    return;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  h.char(OPEN_OBJECT);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) h.char(COMMA);
    h.text(JSON.stringify(k));
    h.char(COLON);
    feed(h, obj[k]);
  }
  h.char(CLOSE_OBJECT);
}

/** A stable hash of a game state, for determinism checks: `hashOfText(canonicalJson(value))`. */
export function hashState(value: unknown): string {
  const h = new TextHash();
  feed(h, value);
  return h.digest();
}
