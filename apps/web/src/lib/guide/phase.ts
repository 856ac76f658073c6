/** Which part of the rules guide answers "What can I do now?" in each step of the turn (4). */
import type { GameView } from '@bke/protocol';

export function guideSectionFor(step: GameView['step']): string {
  switch (step.kind) {
    case 'entry':
      return '4.2';
    case 'playerTurn':
      return { combination: '4.3.1', growth: '4.3.2', movement: '4.3.3', stacking: '6', combat: '7.1' }[
        step.phase
      ];
    case 'economic':
      return '4.5';
    case 'administration':
      return '4.6';
    default:
      return '4.3';
  }
}
