/**
 * The bare baseline, in its own process: the same Socket.IO on a plain HTTP server, with handlers
 * that do only what any server must — an echo; an echo after one INSERT of the message in the same
 * kind of database as the server under test (a `pg` pool of the server's size, or its own embedded
 * PostgreSQL); a room emit of the same bytes to the world's six sockets; and on connection the full
 * view after one session lookup (the row of a token's hash joined with its account's, as the
 * server's sign-in reads it), as a reconnecting client of the real server receives it.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, pg, SocketIoServer } from '@bke/server';
import { probeHandlers, serve } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';

type Insert = (room: string, body: unknown) => Promise<unknown>;
type Lookup = (tokenHash: string) => Promise<unknown>;
let close: () => Promise<void> = async () => {};
/** The full view sent to a connecting socket that asks for it (the reconnect metric). */
let fullView: unknown = null;
/** The session every reconnecting client of the bare server presents. */
const BARE_TOKEN = 'bare-bench-session';
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

async function start(req: { db: BenchDatabase }): Promise<{ url: string }> {
  let insert: Insert;
  let lookup: Lookup;
  let closeDb: () => Promise<void>;
  const tables = [
    'CREATE TABLE IF NOT EXISTS bare_orders (id bigserial PRIMARY KEY, world text, body jsonb)',
    'CREATE TABLE IF NOT EXISTS bare_users (id uuid PRIMARY KEY, username text NOT NULL)',
    `CREATE TABLE IF NOT EXISTS bare_sessions (token_hash text PRIMARY KEY,
       user_id uuid NOT NULL REFERENCES bare_users (id), expires_at timestamptz NOT NULL)`,
    `INSERT INTO bare_users VALUES ('00000000-0000-4000-8000-000000000001', 'bare') ON CONFLICT DO NOTHING`,
    `INSERT INTO bare_sessions VALUES ('${hashOf(BARE_TOKEN)}', '00000000-0000-4000-8000-000000000001',
       now() + interval '1 day') ON CONFLICT DO NOTHING`,
  ];
  const text = 'INSERT INTO bare_orders (world, body) VALUES ($1, $2)';
  const session = `SELECT u.id, u.username FROM bare_sessions s JOIN bare_users u ON u.id = s.user_id
                    WHERE s.token_hash = $1 AND s.expires_at >= now()`;
  if (req.db.kind === 'postgres') {
    // The server's pool size (db/database.ts: 10 by default).
    const pool = new pg.Pool({ connectionString: req.db.url, max: 10 });
    pool.on('error', () => {});
    for (const t of tables) await pool.query(t);
    insert = (room, body) => pool.query({ name: 'bare_insert', text, values: [room, JSON.stringify(body)] });
    lookup = (hash) => pool.query({ name: 'bare_session', text: session, values: [hash] });
    closeDb = () => pool.end();
  } else {
    const db = await openDatabase(req.db);
    for (const t of tables) await db.sql(t);
    insert = (room, body) => db.sql(text, [room, JSON.stringify(body)]);
    lookup = (hash) => db.sql(session, [hash]);
    closeDb = () => db.close();
  }
  const http = createServer();
  const io = new SocketIoServer(http, { serveClient: false, maxHttpBufferSize: 64 * 1024 });
  const counters = new Map<string, number>();
  io.on('connection', (s) => {
    // A reconnecting client: its session looked up, then the full view.
    if (s.handshake.auth?.view === true)
      void lookup(hashOf(String(s.handshake.auth.token ?? ''))).then(
        () => s.emit('view', fullView),
        () => s.disconnect(true),
      );
    // A page that starts watching: in the room, and given the full view with the answer.
    s.on('join', (room: string, ack: (view?: unknown) => void) => {
      void s.join(room);
      ack(s.handshake.auth?.watch === true ? fullView : undefined);
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
