/**
 * The bare baseline, in its own process: the same Socket.IO on a plain HTTP server, with handlers
 * that do only what any server must — an echo; an echo after one INSERT of the message in the same
 * kind of database as the server under test (a `pg` pool of the server's size, or its own embedded
 * PostgreSQL); a room emit of the same bytes to the world's six sockets; and on connection the full
 * view, as a reconnecting client of the real server receives it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, pg, SocketIoServer } from '@bke/server';
import { probeHandlers, serve } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';

type Insert = (room: string, body: unknown) => Promise<unknown>;
let close: () => Promise<void> = async () => {};
/** The full view sent to a connecting socket that asks for it (the reconnect metric). */
let fullView: unknown = null;

async function start(req: { db: BenchDatabase }): Promise<{ url: string }> {
  let insert: Insert;
  let closeDb: () => Promise<void>;
  const table = 'CREATE TABLE IF NOT EXISTS bare_orders (id bigserial PRIMARY KEY, world text, body jsonb)';
  const text = 'INSERT INTO bare_orders (world, body) VALUES ($1, $2)';
  if (req.db.kind === 'postgres') {
    // The server's pool size (db/database.ts: 10 by default).
    const pool = new pg.Pool({ connectionString: req.db.url, max: 10 });
    pool.on('error', () => {});
    await pool.query(table);
    insert = (room, body) => pool.query({ name: 'bare_insert', text, values: [room, JSON.stringify(body)] });
    closeDb = () => pool.end();
  } else {
    const db = await openDatabase(req.db);
    await db.sql(table);
    insert = (room, body) => db.sql(text, [room, JSON.stringify(body)]);
    closeDb = () => db.close();
  }
  const http = createServer();
  const io = new SocketIoServer(http, { serveClient: false, maxHttpBufferSize: 64 * 1024 });
  const counters = new Map<string, number>();
  io.on('connection', (s) => {
    if (s.handshake.auth?.view === true) s.emit('view', fullView);
    s.on('join', (room: string, ack: () => void) => {
      void s.join(room);
      ack();
    });
    s.on('echo', async (msg: { room?: string; db?: boolean; body: unknown }, ack: (r: unknown) => void) => {
      const room = msg.room ?? '';
      if (msg.db !== false) await insert(room, msg.body);
      const version = (counters.get(room) ?? 0) + 1;
      counters.set(room, version);
      if (msg.room) io.to(msg.room).emit('p', { to: version, body: msg.body });
      ack({ ok: true, version });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  close = async () => {
    io.disconnectSockets(true);
    await new Promise<void>((r) => io.close(() => r()));
    await closeDb();
  };
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

serve(
  {
    ...probeHandlers(),
    start: (req: { db: BenchDatabase }) => start(req),
    view: (view: unknown) => {
      fullView = view;
      return true;
    },
  },
  () => close(),
);
