import type { FinalTableResponse } from '@bke/protocol';
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FinalTable from './FinalTable.svelte';

const W = '6f1c2a4e-0000-4000-8000-000000000001';

function serve(table: FinalTableResponse) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(table), { status: 200 });
    }),
  );
  return urls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const row = (name: string) => within(screen.getByRole('row', { name: new RegExp(name) }));

describe("an ended world's final table", () => {
  it("says each person's rating before and after the result, the change signed, and a provisional rating in words", async () => {
    const urls = serve({
      worldId: W,
      victory: 'basic',
      rated: true,
      rows: [
        {
          playerId: 'p1',
          username: 'alaric',
          bot: null,
          rank: 1,
          score: 57,
          ratingBefore: 1512,
          ratingAfter: 1540,
          provisional: false,
        },
        {
          playerId: 'p3',
          username: 'fritigern',
          bot: null,
          rank: 2,
          score: 44,
          ratingBefore: 1500,
          ratingAfter: 1486,
          provisional: true,
        },
        {
          playerId: 'p4',
          username: 'radagaisus',
          bot: null,
          rank: 3,
          score: 41,
          ratingBefore: 1500,
          ratingAfter: 1500,
          provisional: true,
        },
        {
          playerId: 'p2',
          username: null,
          bot: 'normal',
          rank: 3,
          score: 41,
          ratingBefore: null,
          ratingAfter: null,
          provisional: null,
        },
      ],
    });
    render(FinalTable, { worldId: W, names: (p: string) => `seat ${p}` });
    expect(await screen.findByRole('heading', { name: 'Final table' })).toBeTruthy();
    expect(urls).toEqual([`/api/worlds/${W}/final-table`]);
    expect(screen.getByRole('columnheader', { name: 'Rating before → after' })).toBeTruthy();

    const alaric = row('alaric');
    expect(alaric.getByText('57 VP in the best cycle')).toBeTruthy();
    expect(alaric.getByText('1512 → 1540 (+28)')).toBeTruthy();
    expect(alaric.queryByText(/provisional/)).toBeNull();

    const fritigern = row('fritigern');
    expect(fritigern.getByText('1500 → 1486 (−14)')).toBeTruthy();
    expect(fritigern.getByText(', provisional: too few results yet to rank by')).toBeTruthy();
    // The words follow the change with no space before the comma.
    expect(fritigern.getByRole('cell', { name: /\(−14\), provisional/ })).toBeTruthy();

    // A rating that did not move is neither up nor down.
    expect(row('radagaisus').getByText('1500 → 1500 (±0)')).toBeTruthy();

    // A bot's seat is named by the page and has no rating change.
    const bot = row('seat p2');
    expect(bot.getByText('seat p2 (bot, normal)')).toBeTruthy();
    expect(bot.getByText('—')).toBeTruthy();
    expect(screen.queryByText(/unrated/)).toBeNull();
  });

  it('says that an unrated world changed no rating', async () => {
    serve({
      worldId: W,
      victory: 'advanced',
      rated: false,
      rows: [
        {
          playerId: 'p1',
          username: 'alaric',
          bot: null,
          rank: 1,
          score: 3.5,
          ratingBefore: null,
          ratingAfter: null,
          provisional: null,
        },
      ],
    });
    render(FinalTable, { worldId: W, names: (p: string) => p });
    expect(await screen.findByText(/This world was unrated: no rating changed\./)).toBeTruthy();
    expect(row('alaric').getByText('3.50 VP a turn')).toBeTruthy();
    expect(screen.queryByText(/→/, { selector: 'td' })).toBeNull();
  });
});
