/**
 * What a background loop (reminders, digests, the mail sender, the session purge, the cluster's
 * sweep) says about its failures: while the database is away every tick fails the same way, and a
 * warning per tick buries the log. The first failure is logged, then nothing until a tick works
 * again, which is logged once with how many ticks failed in between.
 */
type Log = (msg: string, data?: object) => void;

export interface FailingLoop {
  /** A tick failed: logged only when the one before it worked. */
  failed(err: unknown): void;
  /** A tick worked: logged only when the one before it failed. */
  worked(): void;
}

export function failingLoop(name: string, warn: Log, info: Log = warn): FailingLoop {
  let failures = 0;
  return {
    failed(err) {
      if (failures++ === 0) warn(`${name} failed; quiet until it works again`, { err: String(err) });
    },
    worked() {
      if (failures === 0) return;
      info(`${name} works again`, { failedTicks: failures });
      failures = 0;
    },
  };
}

/** Runs `tick` and tells `loop` how it went; never rejects. */
export async function tickOf(loop: FailingLoop, tick: () => Promise<unknown>): Promise<void> {
  try {
    await tick();
    loop.worked();
  } catch (e) {
    loop.failed(e);
  }
}
