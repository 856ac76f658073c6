/**
 * Socket.IO room names. With a cluster adapter (cluster/adapter.ts) a room spans every server
 * process: `io.to(room).emit` and `io.in(room).disconnectSockets()` reach sockets on all of them.
 */

/** Everyone watching a world: players and spectators. */
export const worldRoom = (worldId: string) => `w:${worldId}`;
/** The sockets playing one seat of a world. */
export const playerRoom = (worldId: string, playerId: string) => `w:${worldId}:${playerId}`;
/** Every socket of a signed-in account (a ban ends them all). */
export const userRoom = (userId: string) => `user:${userId}`;
