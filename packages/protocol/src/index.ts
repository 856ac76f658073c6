export * from './errors.ts';
export * from './health.ts';
export * from './socket.ts';

/** Bumped whenever a message changes shape incompatibly. */
export const PROTOCOL_VERSION = 1;
