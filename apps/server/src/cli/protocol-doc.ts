/** Writes docs/protocol.md from packages/protocol's schemas and examples. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderProtocolDoc } from '@bke/protocol';
import { REPO_ROOT } from '../root.ts';
import { exitOnHelp } from './help.ts';

export const PROTOCOL_DOC = path.join(REPO_ROOT, 'docs/protocol.md');

// Run as a command, not imported (its test reads PROTOCOL_DOC): the URL of the script Node was given,
// escaped as import.meta.url is (a space in the path is %20 there).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitOnHelp('usage: npm run -s protocol:doc   (regenerates docs/protocol.md from the zod schemas)');
  await writeFile(PROTOCOL_DOC, renderProtocolDoc());
  console.log(`Wrote ${path.relative(process.cwd(), PROTOCOL_DOC)}`);
}
