/** The picture for people (`npm run map:render`) is drawn from the data: a smoke test of the SVG. */
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../build/render-svg.ts';
import { loadMap } from '../src/index.ts';

describe('renderSvg', () => {
  const map = loadMap();
  const svg = renderSvg(map);

  it('draws every area, city, start label and arrow', () => {
    expect(svg.startsWith('<svg')).toBe(true);
    for (const a of map.areas) expect(svg.includes(`d="${a.path}"`), a.id).toBe(true);
    expect(svg).toContain('>Byzantium 4<');
    expect(svg).toContain('>GERMAN 2<');
    expect(svg.match(/marker-start="url\(#red-arrow\)"/g)?.length).toBe(
      map.edges.filter((e) => e.redArrow).length,
    );
  });
});
