/**
 * Parses the authored map source (packages/map/source/*.txt) into plain records.
 *
 * Every source file is a list of lines with fields separated by `|`; `#` starts a comment and blank
 * lines are ignored. The formats are described at the top of each source file. Parsing is strict: any
 * malformed line throws with its file and line number, because a silent typo in the map is a rules bug.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HALVES,
  type Half,
  SEA_CROSSING_PEOPLES,
  START_POSITIONS,
  type StartPosition,
} from '../src/schema.ts';

export type LonLat = readonly [number, number];

interface SourceProvince {
  id: string;
  name: string;
  half: Half | null;
}

export interface SourceCity {
  name: string;
  tax: number;
  optional: boolean;
  /** Explicit neutral strength when the book states one (14.1), else null to use the default. */
  neutralStrength: number | null;
}

export interface SourceArea {
  id: string;
  name: string;
  kind: 'land' | 'sea';
  province: string | null;
  seeds: LonLat[];
  desert: boolean;
  garrisonSymbol: boolean;
  aMarked: boolean;
  startPosition: StartPosition | null;
  seaCrossingFor: string[];
  city: SourceCity | null;
  line: string;
}

type FeatureKind = 'river' | 'mountain' | 'strait';

export interface SourceFeature {
  kind: FeatureKind;
  name: string;
  points: LonLat[];
}

type ConnectionKind = 'road' | 'redArrow' | 'whiteArrow' | 'river' | 'mountain' | 'cut';

interface SourceConnection {
  kind: ConnectionKind;
  a: string;
  b: string;
  line: string;
}

export interface SourceMap {
  provinces: SourceProvince[];
  areas: SourceArea[];
  features: SourceFeature[];
  connections: SourceConnection[];
}

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function lines(dir: string, file: string): { fields: string[]; where: string }[] {
  const text = readFileSync(join(dir, file), 'utf8');
  const out: { fields: string[]; where: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    const body = raw.replace(/#.*$/, '').trim();
    if (body === '') return;
    out.push({ fields: body.split('|').map((f) => f.trim()), where: `${file}:${i + 1}` });
  });
  return out;
}

function fail(where: string, message: string): never {
  throw new Error(`${where}: ${message}`);
}

function parseId(value: string | undefined, where: string): string {
  if (value === undefined || !ID.test(value)) fail(where, `bad id "${value ?? ''}"`);
  return value;
}

function parseNumber(value: string | undefined, where: string): number {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n)) fail(where, `bad number "${value ?? ''}"`);
  return n;
}

/** "lon lat; lon lat" or "lon lat, lon lat" into points. */
export function parsePoints(text: string, where: string): LonLat[] {
  return text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((pair) => {
      const [lon, lat, extra] = pair.split(/\s+/);
      if (extra !== undefined) fail(where, `bad point "${pair}"`);
      return [parseNumber(lon, where), parseNumber(lat, where)] as const;
    });
}

/** "Roma 3 n3" / "Ecbatana 1 opt": name words, then the tax, then optional markers. */
export function parseCity(text: string, where: string): SourceCity | null {
  if (text === '' || text === '-') return null;
  const words = text.split(/\s+/);
  const taxAt = words.findIndex((w) => /^\d+$/.test(w));
  if (taxAt < 1) fail(where, `city "${text}" needs a name and a tax value`);
  const city: SourceCity = {
    name: words.slice(0, taxAt).join(' '),
    tax: parseNumber(words[taxAt], where),
    optional: false,
    neutralStrength: null,
  };
  for (const marker of words.slice(taxAt + 1)) {
    if (marker === 'opt') city.optional = true;
    else if (/^n\d+$/.test(marker)) city.neutralStrength = Number(marker.slice(1));
    else fail(where, `unknown city marker "${marker}"`);
  }
  return city;
}

function parseFlags(text: string, where: string, area: SourceArea): void {
  for (const flag of text.split(/\s+/).filter((f) => f !== '')) {
    if (flag === 'desert') area.desert = true;
    else if (flag === 'garrison') area.garrisonSymbol = true;
    else if (flag === 'A') area.aMarked = true;
    else if (flag.startsWith('start:')) {
      const label = flag.slice(6).replace(/_/g, ' ');
      const start = START_POSITIONS.find((s) => s === label);
      if (start === undefined) fail(where, `unknown start position "${label}"`);
      area.startPosition = start;
    } else if (flag.startsWith('cross:')) {
      const people = flag.slice(6);
      if (!SEA_CROSSING_PEOPLES.some((p) => p === people)) fail(where, `unknown people "${people}"`);
      area.seaCrossingFor.push(people);
    } else fail(where, `unknown flag "${flag}"`);
  }
}

function emptyArea(id: string, name: string, kind: 'land' | 'sea', line: string): SourceArea {
  return {
    id,
    name,
    kind,
    province: null,
    seeds: [],
    desert: false,
    garrisonSymbol: false,
    aMarked: false,
    startPosition: null,
    seaCrossingFor: [],
    city: null,
    line,
  };
}

function parseProvinces(dir: string): SourceProvince[] {
  return lines(dir, 'provinces.txt').map(({ fields, where }) => {
    const [id, name, half] = fields;
    if (fields.length !== 3 || !name) fail(where, 'expected id | name | west|east|-');
    const h = HALVES.find((x) => x === half) ?? null;
    if (h === null && half !== '-') fail(where, `bad half "${half}"`);
    return { id: parseId(id, where), name, half: h };
  });
}

function parseLand(dir: string): SourceArea[] {
  return lines(dir, 'land.txt').map(({ fields, where }) => {
    const [id, name, province, seeds, flags, city] = fields;
    if (fields.length < 4 || fields.length > 6 || !name) {
      fail(where, 'expected id | name | province | seeds [| flags [| city]]');
    }
    const area = emptyArea(parseId(id, where), name, 'land', where);
    area.province = parseId(province, where);
    area.seeds = parsePoints(seeds ?? '', where);
    parseFlags(flags ?? '', where, area);
    area.city = parseCity(city ?? '', where);
    return area;
  });
}

function parseSeas(dir: string): SourceArea[] {
  return lines(dir, 'seas.txt').map(({ fields, where }) => {
    const [id, name, seeds, flags] = fields;
    if (fields.length < 3 || fields.length > 4 || !name) fail(where, 'expected id | name | seeds [| flags]');
    const area = emptyArea(parseId(id, where), name, 'sea', where);
    area.seeds = parsePoints(seeds ?? '', where);
    parseFlags(flags ?? '', where, area);
    return area;
  });
}

function parseFeatures(dir: string): SourceFeature[] {
  return lines(dir, 'features.txt').map(({ fields, where }) => {
    const [kind, name, points] = fields;
    if (kind !== 'river' && kind !== 'mountain' && kind !== 'strait')
      fail(where, `bad feature kind "${kind}"`);
    if (!name || points === undefined) fail(where, 'expected kind | name | points');
    const pts = parsePoints(points, where);
    if (pts.length < 2) fail(where, 'a feature needs at least two points');
    return { kind, name, points: pts };
  });
}

const CONNECTION_KINDS: readonly ConnectionKind[] = [
  'road',
  'redArrow',
  'whiteArrow',
  'river',
  'mountain',
  'cut',
];

/** `road | a b c` is a chain (a-b, b-c); the other kinds take exactly two ids. */
function parseConnections(dir: string): SourceConnection[] {
  const out: SourceConnection[] = [];
  for (const { fields, where } of lines(dir, 'connections.txt')) {
    const [kind, ids] = fields;
    const k = CONNECTION_KINDS.find((c) => c === kind);
    if (k === undefined || ids === undefined || fields.length !== 2) fail(where, 'expected kind | id id ...');
    const chain = ids.split(/\s+/).map((id) => parseId(id, where));
    if (chain.length < 2 || (k !== 'road' && chain.length !== 2)) fail(where, 'wrong number of ids');
    for (let i = 0; i + 1 < chain.length; i++) {
      out.push({ kind: k, a: chain[i] as string, b: chain[i + 1] as string, line: where });
    }
  }
  return out;
}

export function parseSource(dir: string): SourceMap {
  return {
    provinces: parseProvinces(dir),
    areas: [...parseLand(dir), ...parseSeas(dir)],
    features: parseFeatures(dir),
    connections: parseConnections(dir),
  };
}
