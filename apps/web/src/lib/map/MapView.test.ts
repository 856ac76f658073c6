import type { GameView } from '@bke/protocol';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_MAP, FIXTURE_VIEW, given } from '../../test/fixtures.ts';
import MapView from './MapView.svelte';

describe('MapView', () => {
  it('draws every area of the map with its name', () => {
    const { container } = render(MapView, { map: FIXTURE_MAP, view: FIXTURE_VIEW });
    expect(container.querySelectorAll('path[data-area]')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Mare Nostrum' })).toBeTruthy();
  });

  it('stacks counters per owner and kind with a count, letter and printed values', () => {
    render(MapView, { map: FIXTURE_MAP, view: FIXTURE_VIEW });
    const tribes = screen.getByTestId('counter-belgica-tribe');
    // Its accessible name says whose counters they are and where (a screen reader hears no colour).
    expect(tribes.getAttribute('aria-label')).toBe('2 × Tribe of Alaric in Belgica');
    expect(tribes.textContent).toContain('R');
    expect(tribes.textContent).toContain('2');
    expect(screen.getByTestId('counter-belgica-barbarianInfantry').textContent).toContain('3-3');
    expect(screen.getByTestId('counter-rhenus-tribe').textContent).toContain('B');
  });

  it('draws mercenaries in their barbarian owner colours while the hirer commands them (AMBIG-21)', () => {
    const view = given<GameView>({
      ...FIXTURE_VIEW,
      // u3 belongs to Brenna's horde, hired by Alaric (its owner in the view is the hirer).
      realm: { leases: [{ owner: 'p2', hirer: 'p1', units: ['u3'], price: 3, status: 'active' }] },
    });
    render(MapView, { map: FIXTURE_MAP, view });
    const merc = screen.getByTestId('counter-belgica-barbarianInfantry');
    expect(merc.textContent).toContain('B');
    expect(merc.querySelector('title')?.textContent).toContain('Alaric, mercenaries of Brenna');
    expect(screen.getByTestId('counter-belgica-tribe').textContent).toContain('R');
  });

  it('shows neutral garrisons, city values and pillage markers', () => {
    const { container } = render(MapView, { map: FIXTURE_MAP, view: FIXTURE_VIEW });
    expect(screen.getByTestId('neutral-lutetia').textContent).toContain('(2)');
    const cities = [...container.querySelectorAll('.city text')].map((t) => t.textContent);
    expect(cities.sort()).toEqual(['2', '3']);
    expect(container.querySelector('.marker text')?.textContent).toBe('7');
  });

  it('marks a capital on its city', () => {
    const players = FIXTURE_VIEW.players.map((p) => (p.id === 'p2' ? { ...p, capital: 'rhenus' } : p));
    const { container } = render(MapView, { map: FIXTURE_MAP, view: { ...FIXTURE_VIEW, players } });
    const capitals = container.querySelectorAll('.capital');
    expect(capitals).toHaveLength(1);
    expect(capitals[0]?.textContent).toBe('Capital of Brenna');
  });

  it('tints areas by occupier, else by city owner', () => {
    render(MapView, { map: FIXTURE_MAP, view: FIXTURE_VIEW });
    const belgica = screen.getByRole('button', { name: 'Belgica' }) as unknown as SVGPathElement;
    const lutetia = screen.getByRole('button', { name: 'Lutetia' }) as unknown as SVGPathElement;
    expect(belgica.style.fill).toBe('rgb(213, 94, 0)');
    expect(lutetia.style.fill).toBe('');
  });

  it('pans with the arrow keys and zooms with + and −', async () => {
    const { container } = render(MapView, { map: FIXTURE_MAP, view: FIXTURE_VIEW });
    const app = screen.getByRole('application');
    const layer = () => container.querySelector('.canvas > g')?.getAttribute('transform') ?? '';
    const scale = () => Number(/scale\(([^)]+)\)/.exec(layer())?.[1]);
    const start = scale();
    await fireEvent.keyDown(app, { key: '+' });
    expect(scale()).toBeCloseTo(start * 1.25);
    const before = layer();
    await fireEvent.keyDown(app, { key: 'ArrowRight' });
    expect(layer()).not.toBe(before);
    await fireEvent.keyDown(app, { key: '-' });
    expect(scale()).toBeCloseTo(start);
  });

  it('lights destinations, draws the route, and reports clicks', async () => {
    const onareaclick = vi.fn();
    const onunitclick = vi.fn();
    render(MapView, {
      map: FIXTURE_MAP,
      view: FIXTURE_VIEW,
      highlight: {
        destinations: new Set(['lutetia']),
        route: { from: 'belgica', path: ['lutetia'] },
        pickable: new Set(['u3']),
      },
      onareaclick,
      onunitclick,
    });
    const dest = screen.getByRole('button', { name: 'Lutetia' });
    expect(dest.getAttribute('class')).toContain('dest');
    expect(dest.getAttribute('tabindex')).toBe('0');
    expect(screen.getByTestId('route').getAttribute('points')).toBe('150,50 50,50');
    await fireEvent.click(dest);
    expect(onareaclick).toHaveBeenCalledWith('lutetia');
    await fireEvent.click(screen.getByTestId('counter-belgica-barbarianInfantry'));
    expect(onunitclick).toHaveBeenCalledWith('u3', 'belgica');
    await fireEvent.keyDown(dest, { key: 'Enter' });
    expect(onareaclick).toHaveBeenCalledTimes(2);
  });
});
