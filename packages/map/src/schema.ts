/**
 * The compiled map's shape. The authored source (packages/map/source) is compiled into
 * packages/map/generated/map.json, and this schema is checked whenever that file is loaded.
 * Field names are the `npm run map:json` output's; ids are kebab-case strings.
 */
import { z } from 'zod';

export const START_POSITIONS = [
  'SLAV 1',
  'SLAV 2',
  'HUN',
  'GERMAN 1',
  'GERMAN 2',
  'TURK',
  'VIKING',
  'PICT',
  'ARAB',
  'AFRICAN',
  'PERSIAN',
] as const;
export type StartPosition = (typeof START_POSITIONS)[number];

/** Peoples whose tribes have marked sea crossings (13.1.1). */
export const SEA_CROSSING_PEOPLES = ['VIKING', 'PICT', 'ARAB'] as const;
export type SeaCrossingPeople = (typeof SEA_CROSSING_PEOPLES)[number];

const AREA_KINDS = ['land', 'sea'] as const;

/**
 * land: two land areas sharing a border; coast: a land area touching a sea area;
 * sea: two sea areas sharing a border; redArrow: a land-unit crossing over water (5.1);
 * whiteArrow: a ship link between two non-adjacent sea areas (5.2).
 */
export const EDGE_KINDS = ['land', 'coast', 'sea', 'redArrow', 'whiteArrow'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** The four edges of the board; an area on an edge may be entered from or left off the map (C.8). */
export const BOARD_SIDES = ['north', 'south', 'east', 'west'] as const;
export type BoardSide = (typeof BOARD_SIDES)[number];

export const HALVES = ['west', 'east'] as const;
export type Half = (typeof HALVES)[number];

const id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'ids are kebab-case');

const provinceSchema = z.object({
  id,
  name: z.string().min(1),
  half: z.enum(HALVES).nullable(),
});
export type Province = z.infer<typeof provinceSchema>;

const citySchema = z.object({
  name: z.string().min(1),
  tax: z.number().int().min(1),
  optional: z.boolean(),
  neutralStrength: z.number().int().min(2),
});
export type City = z.infer<typeof citySchema>;

/** One stretch of coast of a land area, with the sea areas it touches (Athens has two). */
const coastSchema = z.object({
  id,
  seas: z.array(id).min(1),
});
export type Coast = z.infer<typeof coastSchema>;

const pointSchema = z.tuple([z.number(), z.number()]);

const areaSchema = z.object({
  id,
  name: z.string().min(1),
  kind: z.enum(AREA_KINDS),
  province: id.nullable(),
  city: citySchema.nullable(),
  desert: z.boolean(),
  coastal: z.boolean(),
  coasts: z.array(coastSchema),
  insideEmpire: z.boolean(),
  garrisonSymbol: z.boolean(),
  startPosition: z.enum(START_POSITIONS).nullable(),
  aMarked: z.boolean(),
  seaCrossingFor: z.array(z.enum(SEA_CROSSING_PEOPLES)),
  /** SVG path in the map's fixed projection (viewBox in MapData.view). */
  path: z.string(),
  /** Where the label (and city dot, unit stack) goes, in the same projection. */
  label: pointSchema,
  /**
   * The board edges this area touches. The east edge north of the
   * Caspian is the entry edge of 14.2.8, and units may leave off the east edge (14.2.5); see C.8.b.
   */
  boardEdges: z.array(z.enum(BOARD_SIDES)),
});
export type Area = z.infer<typeof areaSchema>;

const edgeSchema = z.object({
  a: id,
  b: id,
  kind: z.enum(EDGE_KINDS),
  river: z.boolean(),
  mountain: z.boolean(),
  road: z.boolean(),
  redArrow: z.boolean(),
  whiteArrow: z.boolean(),
  imperialBoundary: z.boolean(),
  /** A land border (C.8.b) between two different provinces. */
  provinceBoundary: z.boolean(),
  /** For land edges: both areas share a coastline on this border, so a ship may move along it (5.2). */
  shoreline: z.boolean(),
});
export type Edge = z.infer<typeof edgeSchema>;

/** A named line drawn on the board (a river or a mountain range), as an SVG path. */
const namedLineSchema = z.object({ name: z.string().min(1), path: z.string() });

/**
 * Drawing aids with no rules meaning (drawn, never moved through): small islands that belong
 * to a sea area (2.1), the river and mountain lines the area borders follow, and the imperial and
 * province boundaries as stroke-only paths. Optional so hand-made test maps need not carry them.
 */
const decorSchema = z.object({
  islands: z.string(),
  rivers: z.array(namedLineSchema),
  mountains: z.array(namedLineSchema),
  imperialBoundary: z.string(),
  provinceBoundaries: z.string(),
});

export const mapDataSchema = z.object({
  version: z.string(),
  view: z.object({ width: z.number().positive(), height: z.number().positive() }),
  provinces: z.array(provinceSchema),
  areas: z.array(areaSchema),
  edges: z.array(edgeSchema),
  decor: decorSchema.optional(),
});
export type MapData = z.infer<typeof mapDataSchema>;
