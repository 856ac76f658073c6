// @vitest-environment node
import { createEngine, sharePosition, simSetup } from '@bke/engine';
import { describe, expect, it } from 'vitest';
import { errorWords } from '../words.ts';
import { decodePosition, encodePosition, MAX_CODE_CHARS } from './share-link.ts';

const engine = createEngine();
const created = engine.createGame(simSetup('share-link', 3));
if (!created.ok) throw new Error(created.error.code);
const link = sharePosition(created.value);

const refusal = async (code: string) => {
  const r = await decodePosition(code);
  return r.ok ? null : r.error;
};

describe('a position in the address', () => {
  it('reads back what was written, in address-safe characters and well under half its JSON', async () => {
    const code = await encodePosition(link);
    expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(code.length).toBeLessThan(JSON.stringify(link).length / 2);
    const back = await decodePosition(code);
    expect(back).toEqual({ ok: true, value: JSON.parse(JSON.stringify(link)) });
  });

  it('refuses garbage with a code and a sentence, never an exception', async () => {
    const good = await encodePosition(link);
    const cases: [string, string][] = [
      ['', 'position/unreadable'],
      ['not a code!', 'position/unreadable'],
      ['x'.repeat(MAX_CODE_CHARS + 1), 'position/unreadable'],
      ['AAAA', 'position/unreadable'],
      [good.slice(0, good.length / 2), 'position/unreadable'],
      [await encodePosition('just text'), 'position/unknown_format'],
      [await encodePosition({ ...link, version: 7 }), 'position/unknown_version'],
      [
        await encodePosition({ ...link, position: { ...link.position, units: { u1: { id: 'u1' } } } }),
        'position/invalid',
      ],
    ];
    for (const [code, expected] of cases) {
      const e = await refusal(code);
      expect(e?.code, code.slice(0, 20)).toBe(expected);
      if (e) expect(errorWords(e)).toMatch(/^[A-Z].*\.$/);
    }
    expect(await refusal(good)).toBeNull();
  });
});
