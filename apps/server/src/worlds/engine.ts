/** The one engine of this process, over the compiled map. */
import { createEngine, type Engine } from '@bke/engine';
import { loadMap } from '@bke/map';

let engine: Engine | null = null;

export function getEngine(): Engine {
  engine ??= createEngine(loadMap());
  return engine;
}
