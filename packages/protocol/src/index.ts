export * from './account.ts';
export * from './auth.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './http-routes.ts';
export * from './lobby.ts';
export * from './mail.ts';
export * from './moderation.ts';
export * from './patch.ts';
export * from './socket.ts';

/** Bumped whenever a message changes shape incompatibly. */
export const PROTOCOL_VERSION = 2;
export { renderProtocolDoc } from './doc.ts';
export * from './text.ts';
