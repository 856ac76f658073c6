/**
 * Imported first by `rebuild`, a batch command that replays a whole world's log in a few seconds:
 * V8 flags set at run time, before any of its code is hot. They change how V8 compiles and
 * collects, never what the code does.
 * - `--optimize-for-size`: V8 collects garbage sooner instead of growing the heap. Measured on a
 *   300-turn world: peak resident memory about 170 MB instead of 255 MB, for about 0.1–0.2 s more
 *   CPU.
 * - `--no-opt`: no optimising compiler (TurboFan). The engine's replay runs a second or two per
 *   thread, too short for the optimised code to repay its compiling, which ran on V8's background
 *   threads of every worker thread: on that world the process took 3.0–3.4 s of CPU with it and
 *   1.8–2.0 s without, the engine alone about 0.6 s where it had taken 0.8–1.5 s.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--optimize-for-size');
setFlagsFromString('--no-opt');
