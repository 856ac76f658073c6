/**
 * Part D golden cases and the rule regressions, each a JSON file in ./played citing its section,
 * played on the real map through the engine's public contract (test/helpers/played-case.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.ts';
import { type PlayedCase, playScenario } from '../helpers/played-case.ts';

const dir = new URL('./played/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const engine = createEngine();

describe('golden cases played through the contract', () => {
  it('covers every Part D case, D-1 to D-32, and the five rule regressions R-1 to R-5', () => {
    const cases = files.map((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as PlayedCase).case);
    for (let n = 1; n <= 32; n++) expect(cases).toContain(`D-${n}`);
    for (let n = 1; n <= 5; n++) expect(cases).toContain(`R-${n}`);
  });
  for (const file of files) {
    const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as PlayedCase;
    describe(`${c.case} ${c.title} (${c.source})`, () => {
      for (const sc of c.scenarios) it(sc.name, () => void playScenario(engine, sc));
    });
  }
});
