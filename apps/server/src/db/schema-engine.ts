/**
 * Prisma's schema engine compiled to WebAssembly, driven through a driver adapter. This replaces the
 * native engine that `prisma migrate` would download (which many hosts cannot reach), and behaves the
 * same: migrations are applied from prisma/migrations and recorded in `_prisma_migrations`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

type WasmBindings = typeof import('@prisma/schema-engine-wasm');
export type SchemaEngine = Awaited<ReturnType<WasmBindings['SchemaEngine']['new']>>;

/** The slice of the WebAssembly API used here (its types live in the DOM lib, which the server omits). */
interface WasmApi {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, unknown>,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let bindings: Promise<WasmBindings> | undefined;

/** Instantiates the wasm module once per process (Node cannot import `.wasm` as a module). */
function loadBindings(): Promise<WasmBindings> {
  bindings ??= (async () => {
    const require = createRequire(import.meta.url);
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as WasmBindings & {
      __wbg_set_wasm(exports: Record<string, unknown>): void;
    };
    const bytes = await readFile(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = await wasmApi.instantiate(bytes, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return glue;
  })();
  return bindings;
}

/** Opens a schema engine on the database behind `adapterFactory`, knowing the given schema. */
export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadBindings();
  const adapter = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  return SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, () => {}, adapter);
}
