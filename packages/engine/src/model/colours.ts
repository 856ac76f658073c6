/** The players' colours (2.3: each player's counters are one colour). */
import { z } from 'zod';

export const COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'orange'] as const;
export type Colour = (typeof COLOURS)[number];
export const colourSchema = z.enum(COLOURS);
