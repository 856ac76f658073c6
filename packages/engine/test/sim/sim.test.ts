/**
 * The simulator on the real map (@bke/map): `sim` with 6 players and 40 turns completes, is
 * deterministic per seed, and at least one player starts its kingdom countdown (9.3.x); the CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine, simSetup, simulate } from '../../src/index.ts';

describe('sim on the real map', () => {
  it('6 players × 40 turns: completes, deterministic, a countdown starts', () => {
    const engine = createEngine();
    const a = simulate(engine, simSetup('acceptance', 6), 40);
    expect(a.summary.turnsPlayed).toBe(40);
    expect(a.summary.standings.some((s) => s.countdownStarted !== null)).toBe(true);
    // Determinism on the real map: a shorter game twice (the full replay check is in contract.test.ts).
    const b = simulate(engine, simSetup('acceptance', 6), 10);
    const c = simulate(engine, simSetup('acceptance', 6), 10);
    expect(b.summary.hash).toBe(c.summary.hash);
  }, 60_000);
});

describe('CLI (npm run -s engine -- …)', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    });

  it('new → legal → apply; a refused order prints its code and exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bke-cli-'));
    const made = cli(['new', '--seed', 'cli', '--players', '2']);
    expect(made.status).toBe(0);
    const state = JSON.parse(made.stdout) as { step: { kind: string; queue: string[] } };
    expect(state.step.kind).toBe('entry');
    const first = state.step.queue[0]!;
    writeFileSync(join(dir, 'state.json'), made.stdout);
    const legal = cli(['legal', '--state', join(dir, 'state.json'), '--player', first]);
    expect(legal.status).toBe(0);
    const orders = JSON.parse(legal.stdout) as { type: string; position: string; areas: string[] }[];
    const choice = orders.find((o) => o.type === 'chooseStart')!;
    // A legal order, then an illegal one: the CLI stops at the refusal, prints its code, exits 2.
    writeFileSync(
      join(dir, 'orders.json'),
      JSON.stringify([
        { type: 'chooseStart', position: choice.position, area: choice.areas[0] },
        { type: 'split', tribe: 'u999', actor: first },
      ]),
    );
    const applied = cli(['apply', '--state', join(dir, 'state.json'), '--orders', join(dir, 'orders.json')]);
    expect(applied.status).toBe(2);
    const out = JSON.parse(applied.stdout) as { error: { code: string }; applied: number };
    expect(out.applied).toBe(1);
    expect(out.error.code).toBe('order/wrong_phase');
  }, 60_000);
});
