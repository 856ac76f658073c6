/** The authored source format: strict parsing of cities and points, and the neutral-strength default. */
import { describe, expect, it } from 'vitest';
import { neutralStrength } from '../build/compile.ts';
import { parseCity, parsePoints } from '../build/parse.ts';

describe('parseCity', () => {
  it('reads name, tax, stated neutral strength and the optional mark', () => {
    expect(parseCity('Byzantium 4 n4', 'x')).toEqual({
      name: 'Byzantium',
      tax: 4,
      optional: false,
      neutralStrength: 4,
    });
    expect(parseCity('Caesarea Mazaca 1', 'x')).toEqual({
      name: 'Caesarea Mazaca',
      tax: 1,
      optional: false,
      neutralStrength: null,
    });
    expect(parseCity('Susa 1 opt', 'x')?.optional).toBe(true);
    expect(parseCity('', 'x')).toBeNull();
  });

  it('rejects a city without a value or with an unknown mark', () => {
    expect(() => parseCity('Roma', 'land.txt:9')).toThrow(/land.txt:9/);
    expect(() => parseCity('Roma 3 big', 'x')).toThrow(/unknown city marker/);
  });
});

describe('parsePoints', () => {
  it('reads "lon lat" pairs separated by ; or ,', () => {
    expect(parsePoints('2.95 39.6; 4.1 39.95', 'x')).toEqual([
      [2.95, 39.6],
      [4.1, 39.95],
    ]);
    expect(parsePoints('1 2, 3 4', 'x')).toHaveLength(2);
    expect(() => parsePoints('1 2 3', 'x')).toThrow();
    expect(() => parsePoints('1 north', 'x')).toThrow();
  });
});

describe('neutralStrength (14.1, AMBIG-5)', () => {
  const city = (tax: number, optional = false, stated: number | null = null) => ({
    name: 'c',
    tax,
    optional,
    neutralStrength: stated,
  });
  it('is the tax value, at least 2 and at most 3, unless the book states it', () => {
    expect(neutralStrength(city(1))).toBe(2);
    expect(neutralStrength(city(3))).toBe(3);
    expect(neutralStrength(city(5))).toBe(3);
    expect(neutralStrength(city(4, false, 4))).toBe(4);
    expect(neutralStrength(city(1, true))).toBe(2);
  });
});
