import { freePort, startServer } from './server.ts';

export default async function globalSetup() {
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const server = await startServer(port);
  process.env.E2E_BASE_URL = server.url;
  return () => server.stop();
}
