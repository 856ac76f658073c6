/** What every scenario of a run shares: the three processes, the worlds, and the run's settings. */
import type { Fixture, FixtureName } from '../fixtures/fixture.ts';
import type { Child } from '../lib/child.ts';
import type { Check } from '../lib/report.ts';
import type { WorldSpec } from '../processes/server.ts';

export interface Settings {
  quick: boolean;
  /** Measured rounds per pair (after one warm-up round). */
  rounds: number;
  /** Seconds per round and side. */
  seconds: number;
  /** Worlds of six players per load level. */
  levels: Record<FixtureName, number[]>;
  /** Idle worlds loaded for the memory metric. */
  idleWorlds: Record<FixtureName, number>;
  idleConnections: number;
  /** Idle connections of the large step, on the turn-1 world. */
  idleStep: number;
  /** Reconnects in the storm (within one second). */
  storm: number;
}

export interface Context {
  settings: Settings;
  server: Child;
  bare: Child;
  load: Child;
  serverUrl: string;
  bareUrl: string;
  worlds: Record<FixtureName, WorldSpec[]>;
  fixtures: Record<FixtureName, Fixture>;
  checks: Check[];
  /** Raw figures kept in the JSON result (per-round spreads and the like). */
  figures: Record<string, unknown>;
}

export const cpuOf = (c: Child) => c.request<number>('cpu');
