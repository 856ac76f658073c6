/** The Node.js flags the server runs with (server-flags.mjs says why). */
export declare const SERVER_NODE_FLAGS: readonly string[];
