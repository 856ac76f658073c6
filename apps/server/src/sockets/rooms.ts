/**
 * The Socket.IO rooms a socket is in. Ending or telling "every socket of X" is a message to X's room,
 * so it reaches X's sockets on whichever server process holds them once the adapter spans processes.
 */
/** Everyone watching a world. */
export const worldRoom = (worldId: string) => `w:${worldId}`;
/** The world whose `worldRoom` `room` is, or null for any other room (a seat's, an account's…). */
export const worldOfRoom = (room: string): string | null => /^w:([^:]+)$/.exec(room)?.[1] ?? null;
/** The sockets playing one seat of a world: its private view, legal orders and private chat. */
export const playerRoom = (worldId: string, playerId: string) => `w:${worldId}:${playerId}`;
/** Every socket of an account (a ban ends them). */
export const userRoom = (userId: string) => `user:${userId}`;
/** Every socket opened with one session (logging out, a password change or expiry ends them). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
