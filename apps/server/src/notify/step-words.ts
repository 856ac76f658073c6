/** A world's current step in a few words, as messages to players name it ("movement"). */
import type { GameState } from '@bke/engine';

const PHASES: Record<string, string> = {
  combination: 'tribal combination',
  growth: 'tribal growth',
  movement: 'movement',
  stacking: 'settling overstacked areas',
  combat: 'combat',
};

/** The step in a few words, for the message. */
export function stepText(step: GameState['step']): string {
  switch (step.kind) {
    case 'playerTurn':
      return PHASES[step.phase] ?? step.phase;
    case 'economic':
      return 'the economic phase';
    case 'administration':
      return 'administration';
    case 'entry':
      return 'choosing where your horde starts';
    default:
      return 'a decision';
  }
}
