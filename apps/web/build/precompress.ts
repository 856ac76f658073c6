/**
 * A Vite plugin writing a gzip and a brotli copy beside every text file of the build, for the
 * server to send as they are (@fastify/static `preCompressed`) instead of compressing per request.
 * A dozen lines over node:zlib, at the highest levels since it runs once per build; a copy that
 * would not be smaller is not written (the server then sends the file itself).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
/** Below this the headers cost more than compression saves. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'bke-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of files(outDir)) {
        if (!TEXT.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < MIN_BYTES) continue;
        const gz = gzipSync(raw, { level: 9 });
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
        const br = brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
      }
    },
  };
}
