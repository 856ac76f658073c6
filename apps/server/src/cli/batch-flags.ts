/**
 * Imported first by `rebuild`, a batch command that replays a whole world's log in a few seconds:
 * V8 flags set at run time, before any of its code is hot. They change how V8 compiles and
 * collects, never what the code does.
 * - `--no-opt`: no optimising compiler (TurboFan). The engine's replay runs a second or two per
 *   thread, too short for the optimised code to repay its compiling, which ran on V8's background
 *   threads of every worker thread: on a 300-turn world the process took 3.0–3.4 s of CPU with it
 *   and 1.8–2.0 s without, the engine alone about 0.6 s where it had taken 0.8–1.5 s.
 * - `--optimize-for-size` for `--repair` and `--all-at-once`, which replay in turn in this one
 *   thread: V8 collects garbage sooner instead of growing the heap (on that world about 150 MB at
 *   the peak instead of 210 MB, for about a third more time). Replaying side by side, the worker
 *   threads' young generations are bounded instead (worlds/range-workers.ts): that flag made each
 *   of them collect four times as often, a fifth of their time.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-opt');
if (process.argv.includes('--repair') || process.argv.includes('--all-at-once'))
  setFlagsFromString('--optimize-for-size');
