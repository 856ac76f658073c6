// The Node.js flags the server runs with, wherever it is started (`npm start`, the e2e tests' server,
// the benchmark's server under test; the Dockerfile repeats them, as it cannot import this file).
//
// --max-semi-space-size=32: V8's young generation may grow to twice its default (16 MiB per
// semi-space on 64-bit). Each order allocates its patches, views and messages, nearly all of which
// die young; with the default size the scavenger ran often enough, and promoted enough of them to
// the old generation, that garbage collection was about a sixth of the server's busy time in a
// profile of the benchmark's saturating rounds. Node's documentation gives this flag for that case:
// more throughput for more memory (at most 32 MiB more, and only while the server is busy; the
// semi-spaces shrink again when it is idle). Measured on the 300-turn world, saturating, in full
// benchmark runs on one 2-core machine: 1.03 and 1.23 ms of server CPU per durable order with it,
// 1.42 ms without (runs there differ by up to about 15 %).
export const SERVER_NODE_FLAGS = Object.freeze(['--max-semi-space-size=32']);
