/** What the server's main thread and a replay thread (replay-worker.ts) say to each other. */
import type { ReplayInput, TurnReplay } from './replay-play.ts';

export interface ReplayAsk {
  readonly id: number;
  readonly input: ReplayInput;
}

export type ReplayAnswer =
  | { readonly id: number; readonly replay: TurnReplay | null; readonly seconds: number }
  | { readonly id: number; readonly failed: string };
