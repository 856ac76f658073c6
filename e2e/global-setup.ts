import { startServer } from './server.ts';

export default async function globalSetup() {
  const server = await startServer(Number(process.env.E2E_PORT ?? 3210));
  process.env.E2E_BASE_URL = server.url;
  return () => server.stop();
}
