/**
 * Player colours that colour-blind players can tell apart: the Okabe–Ito palette, each colour
 * also carrying a letter and a fill pattern, so nothing depends on hue alone.
 */
import type { Colour } from '@bke/protocol';

export interface PlayerStyle {
  /** The counter and tint colour (Okabe–Ito). */
  readonly fill: string;
  /** Text drawn on top of the fill, chosen for contrast. */
  readonly ink: string;
  /** One letter printed on every counter and in every legend. */
  readonly letter: string;
  /** The pattern laid over owned areas (see MapPatterns.svelte). */
  readonly pattern: 'stripes' | 'dots' | 'cross' | 'waves' | 'grid' | 'diagonal';
  readonly label: string;
}

export const PLAYER_STYLES: Readonly<Record<Colour, PlayerStyle>> = {
  red: { fill: '#D55E00', ink: '#ffffff', letter: 'R', pattern: 'stripes', label: 'Vermilion' },
  blue: { fill: '#0072B2', ink: '#ffffff', letter: 'B', pattern: 'dots', label: 'Blue' },
  green: { fill: '#009E73', ink: '#ffffff', letter: 'G', pattern: 'cross', label: 'Green' },
  yellow: { fill: '#F0E442', ink: '#2a2420', letter: 'Y', pattern: 'waves', label: 'Yellow' },
  black: { fill: '#2a2420', ink: '#ffffff', letter: 'K', pattern: 'grid', label: 'Black' },
  orange: { fill: '#E69F00', ink: '#2a2420', letter: 'O', pattern: 'diagonal', label: 'Orange' },
};

export const styleOf = (colour: Colour | undefined): PlayerStyle => PLAYER_STYLES[colour ?? 'black'];
