/**
 * Tells this process's sockets when it loses its database and when it has it back
 * (`server/database`), and a socket that connects meanwhile at once, so that a player knows why an
 * order or a chat line is refused instead of guessing. Each process tells its own sockets only:
 * each watches its own connections, and one process may lose them while another keeps them.
 */
import type { DatabaseWatch } from '../db/database-watch.ts';
import type { Io } from './typed-server.ts';

export function tellDatabaseChanges(io: Io, watch: DatabaseWatch): void {
  watch.onChange((up) => io.local.emit('server/database', { up }));
  io.on('connection', (socket) => {
    if (!watch.up()) socket.emit('server/database', { up: false });
  });
}
