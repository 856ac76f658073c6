import type { GameView } from '@bke/protocol';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { FIXTURE_MAP, FIXTURE_VIEW, given } from '../../test/fixtures.ts';
import AreaDetails from './AreaDetails.svelte';

const belgica = FIXTURE_MAP.areas.find((a) => a.id === 'belgica');

describe('AreaDetails', () => {
  it('names the mercenaries among the units and the prisoners kept in the area (13.4, 13.6)', () => {
    if (!belgica) throw new Error('fixture');
    const view = given<GameView>({
      ...FIXTURE_VIEW,
      realm: {
        leases: [{ owner: 'p2', hirer: 'p1', units: ['u3'], price: 3, status: 'active' }],
        prisoners: [{ leader: 'u50', owner: 'p2', captor: 'p1', holder: 'u1', ransom: 6 }],
      },
    });
    render(AreaDetails, { area: belgica, view, provinceName: 'Gallia' });
    expect(screen.getByTestId('area-details').textContent).toContain('Alaric, mercenaries of Brenna');
    expect(screen.getByTestId('prisoner').textContent).toContain(
      "Prisoner: Brenna's leader, held by Alaric (ransom asked: 6).",
    );
  });
});
