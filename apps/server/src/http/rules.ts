/**
 * The rules' tables for the in-app guide, straight from the engine (7.1): the client shows the
 * combat table and its chances without keeping a copy that could drift from what is rolled on.
 */
import { CRT, CRT_ROLLS, crtChances, crtResult } from '@bke/engine';
import { type CombatTable, HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';

function combatTable(): CombatTable {
  const columns = CRT.columns.map((c) => c.id);
  return {
    source: CRT.provenance.source,
    columns,
    rows: CRT_ROLLS.map((roll) => ({ roll, results: columns.map((_, i) => crtResult(CRT, i, roll)) })),
    chances: Object.fromEntries(columns.map((id) => [id, crtChances(CRT, id)])),
  };
}

export function registerRules(app: FastifyInstance): void {
  // The table is fixed for the life of the process: built once.
  const table = combatTable();
  app.get(HTTP_ROUTES.combatTable.path, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return table;
  });
}
