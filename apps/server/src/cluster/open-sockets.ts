/**
 * How many sockets the site's other processes hold open for a client address and an account, for
 * the caps on open sockets (sockets/admission.ts): asked at each handshake with `sockets:count`,
 * each process answering with its own counts, when there are other processes at all. A handshake is
 * not the hot path: one round trip through the adapter there is cheap beside the socket it admits.
 *
 * Not `fetchSockets()`: it would ship every matching socket's handshake — the session cookie
 * among its headers — through the database (or Redis) to count them. Two handshakes of one account
 * at the same moment on two processes may both be let in at the cap (each counts the other's
 * socket only once it is open): the cap can be passed by the handshakes in flight, never more.
 */
import type { Io } from '../sockets/typed-server.ts';
import type { ClusterLink } from './adapter.ts';
import { socketsAnswerSchema, socketsAskSchema } from './messages.ts';

export interface OpenCounts {
  readonly address: number;
  readonly account: number;
}

/** The counts of every other process together. */
export type OpenElsewhere = (address: string, account: string | null) => Promise<OpenCounts>;

/** Answers the other processes' asks with `here`'s counts; returns the ask of the others. */
export function linkOpenSockets(
  io: Io,
  link: ClusterLink,
  here: (address: string, account: string | null) => OpenCounts,
): OpenElsewhere {
  const none = { address: 0, account: 0 };
  if (link.kind === 'none') return async () => none;

  io.on('sockets:count', (raw: unknown, answer: unknown) => {
    const of = socketsAskSchema.safeParse(raw);
    if (typeof answer === 'function') answer(of.success ? here(of.data.address, of.data.account) : none);
  });

  return async (address, account) => {
    if ((await io.of('/').adapter.serverCount()) <= 1) return none;
    // A process that does not answer in time (the adapter waits 5 s) is counted out: a process that
    // died has no sockets left, and one that lives answers.
    const answers = await new Promise<unknown[]>((resolve) => {
      io.serverSideEmit('sockets:count', { address, account }, (_err: Error | null, replies: unknown[]) =>
        resolve(replies ?? []),
      );
    });
    let total = { address: 0, account: 0 };
    for (const a of answers) {
      const open = socketsAnswerSchema.safeParse(a);
      if (open.success)
        total = { address: total.address + open.data.address, account: total.account + open.data.account };
    }
    return total;
  };
}
