/** `npm run -s map:json`: prints the compiled map (packages/map/generated/map.json) as JSON. */
import { loadMap } from '../src/index.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('usage: npm run -s map:json   (prints packages/map/generated/map.json, formatted)');
  process.exit(0);
}

// a reader that stops early (`| head`) is not an error
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.stdout.write(`${JSON.stringify(loadMap(), null, 2)}\n`);
