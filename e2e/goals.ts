/**
 * The situations `drive.ts` plays a world into, and how a spec asks for one: it runs the driver
 * in its own Node process (with tsx, for the engine's JSON tables) and reads the JSON line it prints.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const GOALS = [
  'kingdomPlan',
  'upkeepShortfall',
  'rebellionChoice',
  'empireGarrisons',
  'shipWithCargo',
  'shipLanding',
] as const;
export type Goal = (typeof GOALS)[number];

export interface DriveAccount {
  name: string;
  password: string;
  cookie: string;
}

export interface DriveInput {
  base: string;
  goal: Goal;
  /** The account to sign up when none is given. */
  name?: string;
  account?: DriveAccount;
  worldId?: string;
  maxOrders?: number;
  /** New worlds to try when the dice leave one hopeless (default 6). */
  attempts?: number;
  /** The bot's policy seed (default: one per world). */
  policySeed?: string;
  /** Find a world seed offline that reaches the goal and have the admin create the world with it. */
  seeded?: boolean;
  /** How seeds are named (`<seedBase>-<attempt>-<k>`) and how many are tried offline. */
  seedBase?: string;
  candidates?: number;
}

export interface DriveOutput<F> {
  account: DriveAccount;
  worldId: string;
  seed: string | null;
  predicted: number | null;
  playerId: string;
  turn: number;
  orders: number;
  attempt: number;
  ms: number;
  found: F;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Plays the world until `input.goal` appears; rejects with the driver's own words when it does not. */
export function drive<F>(input: DriveInput): Promise<DriveOutput<F>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'e2e/drive.ts', JSON.stringify(input)],
      { cwd: ROOT, maxBuffer: 4 * 1024 * 1024, timeout: 170_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`drive ${input.goal}: ${stderr || error.message}`));
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve(JSON.parse(line) as DriveOutput<F>);
      },
    );
  });
}

/** The session cookie as Playwright wants it, for a browser context of the same account. */
export function browserCookie(account: DriveAccount, base: string) {
  const i = account.cookie.indexOf('=');
  return { name: account.cookie.slice(0, i), value: account.cookie.slice(i + 1), url: base };
}

/** What `duel.ts` is asked: find and reach the meeting, or play on until the lease is in force. */
export type DuelInput =
  | {
      stage: 'meet';
      /** The lease meeting (default), a tribute a realm may pay (13.7) or a captured leader (13.6). */
      goal?: 'lease' | 'tribute' | 'ransom';
      base: string;
      names: [string, string];
      seedBase: string;
      candidates?: number;
      maxOrders?: number;
    }
  | {
      stage: 'turn';
      base: string;
      accounts: DriveAccount[];
      worldId: string;
      seed: string;
      /** Plays on until this game turn has begun. */
      turn: number;
      /** Then on until the player waited for may split a tribe (tribal growth, 9.2). */
      untilSplit?: boolean;
      maxOrders?: number;
    }
  | {
      stage: 'lease';
      base: string;
      accounts: DriveAccount[];
      worldId: string;
      seed: string;
      met: { owner: string; hirer: string; units: string[]; price: number };
      maxOrders?: number;
    };

/** Runs the two-player driver (`duel.ts`) and reads the JSON line it prints. */
export function duel<T>(input: DuelInput): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'e2e/duel.ts', JSON.stringify(input)],
      { cwd: ROOT, maxBuffer: 4 * 1024 * 1024, timeout: 170_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`duel ${input.stage}: ${stderr || error.message}`));
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve(JSON.parse(line) as T);
      },
    );
  });
}
