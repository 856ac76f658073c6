/** `npm run -s map:json`: prints the compiled map (packages/map/generated/map.json) as JSON. */
import { loadMap } from '../src/index.ts';

process.stdout.write(`${JSON.stringify(loadMap(), null, 2)}\n`);
