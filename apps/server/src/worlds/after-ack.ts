/**
 * When the rest of a commit's work may start: after its sender's acknowledgement has been written.
 *
 * The append's reply arrives in an I/O callback of the event loop, and everything from there to the
 * socket write of the acknowledgement (the world's queue, the hub, the socket handler) runs in that
 * callback's microtasks. A setImmediate callback runs only once they are all done. So a write or a
 * query started from `afterAcknowledgement()` (another viewer's message, the status of a new step,
 * a projection, a turn notice) leaves after the acknowledgement: on a busy machine each socket
 * write may hand the CPU to the process it wakes, and the sender must not wait for those.
 */
export const afterAcknowledgement = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
