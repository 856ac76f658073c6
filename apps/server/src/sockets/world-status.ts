/**
 * A world's status as its viewers get it (step, deadline, who is waited for, who is ready): the
 * head is read from the runtime when it moves, the ready flags from the database.
 */
import type { WorldStatusMessage } from '@bke/protocol';
import { afterAcknowledgement } from '../worlds/after-ack.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import type { Seating } from '../worlds/seating.ts';

export class WorldStatus {
  constructor(private readonly seating: Seating) {}

  /**
   * The world's status now, with the ready flags of the seats as just read (`ready` gives the
   * seats whose flag is a step key's): a subscribe reads them in its one statement.
   */
  now(rt: WorldRuntime, ready: (stepKey: string) => string[]): WorldStatusMessage {
    const head = headOf(rt);
    return { ...head, ready: rt.settings.earlyResolution || !head.stepKey ? [] : ready(head.stepKey) };
  }

  /**
   * The head as this change left it, its ready flags read after the acknowledgement of the order
   * that moved it (its sender's answer comes before any query or message of the commit's).
   */
  afterAck(rt: WorldRuntime): Promise<WorldStatusMessage> {
    const head = headOf(rt);
    return afterAcknowledgement().then(() => this.withReady(rt, head));
  }

  private async withReady(
    rt: WorldRuntime,
    head: Omit<WorldStatusMessage, 'ready'>,
  ): Promise<WorldStatusMessage> {
    return { ...head, ready: await this.seating.ready(rt, head.stepKey) };
  }
}

/** The world's status but its ready flags, which the database holds. */
function headOf(rt: WorldRuntime): Omit<WorldStatusMessage, 'ready'> {
  return {
    worldId: rt.id,
    version: rt.version,
    status: rt.settings.status,
    stepKey: rt.head.stepKey,
    deadlineAt: rt.head.deadlineAt?.toISOString() ?? null,
    waitingFor: rt.waitingFor(),
    pauseReason: rt.settings.status === 'paused' ? rt.settings.pauseReason : null,
  };
}
