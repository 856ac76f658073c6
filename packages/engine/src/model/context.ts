/** What every rule function receives besides the state: the compiled map and the options. */
import type { MapIndex } from './map-index.ts';
import type { Options } from './options.ts';

export interface EngineContext {
  readonly map: MapIndex;
  readonly options: Options;
}
