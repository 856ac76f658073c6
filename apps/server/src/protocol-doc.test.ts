import { readFile } from 'node:fs/promises';
import { renderProtocolDoc } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_DOC } from './cli/protocol-doc.ts';

describe('docs/protocol.md', () => {
  it('is exactly what the schemas render (run apps/server/src/cli/protocol-doc.ts after a change)', async () => {
    expect(await readFile(PROTOCOL_DOC, 'utf8')).toBe(renderProtocolDoc());
  });
});
