/**
 * The bot levels' names, gentlest first, with the sentence a player reads to choose one. A closed
 * vocabulary that loads nothing else: the protocol validates the wire with it and the web shows
 * its sentences. `easy` and `strong` were the first two levels and keep their meaning (worlds store
 * a level by this id), so stored seats need no change.
 */
export const BOT_LEVELS = ['novice', 'easy', 'normal', 'strong', 'expert'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** A first world's bots (the player has no world yet). */
export const GENTLEST_BOT_LEVEL: BotLevel = BOT_LEVELS[0];

/** The name and one plain sentence on how each level plays, for the create form and the stand-in choice. */
export const BOT_LEVEL_TEXT: Record<BotLevel, { name: string; sentence: string }> = {
  novice: {
    name: 'Novice',
    sentence:
      'Plays like someone in their first game: slow to move, attacks only at safe odds, but keeps its horde together.',
  },
  easy: {
    name: 'Easy',
    sentence: 'Follows the rules simply: grows, combines, walks to the nearest city and buys at random.',
  },
  normal: {
    name: 'Normal',
    sentence: 'Has a plan for every stage, but often takes the obvious move instead of the best one.',
  },
  strong: {
    name: 'Strong',
    sentence:
      'Plays a full strategy: gathers on the richest cities, attacks at good odds, keeps leaders guarded and its treasury paid.',
  },
  expert: {
    name: 'Expert',
    sentence:
      'Plays the Strong strategy, but first tries several plans for each move ahead, with the dice rolled many ways, and keeps the one that works out best.',
  },
};

/**
 * A level as stored (a seat's bot or stand-in, an order's bot): every id of BOT_LEVELS is its own
 * level; a name no release wrote is read as Easy, the level of the oldest worlds' default.
 */
export function botLevelFrom(stored: string | null | undefined): BotLevel {
  return (BOT_LEVELS as readonly string[]).includes(stored ?? '') ? (stored as BotLevel) : 'easy';
}
