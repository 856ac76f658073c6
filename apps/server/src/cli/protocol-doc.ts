/** Writes docs/protocol.md from packages/protocol's schemas and examples. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderProtocolDoc } from '@bke/protocol';
import { REPO_ROOT } from '../root.ts';
import { exitOnHelp } from './help.ts';

export const PROTOCOL_DOC = path.join(REPO_ROOT, 'docs/protocol.md');

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnHelp('usage: npm run -s protocol:doc   (regenerates docs/protocol.md from the zod schemas)');
  await writeFile(PROTOCOL_DOC, renderProtocolDoc());
  console.log(`Wrote ${path.relative(process.cwd(), PROTOCOL_DOC)}`);
}
