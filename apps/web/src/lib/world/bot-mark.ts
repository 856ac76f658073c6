/**
 * A player's name as the history, the chronicle and the order texts print it: a bot's seat carries
 * "(bot)" so that no line reads as if a person had done what a bot did. `level` is the seat's bot
 * level (undefined for a person's seat).
 */
export const botMarked = (name: string, level: string | undefined): string =>
  level ? `${name} (bot)` : name;

/**
 * The words beside a bot account's name (a person's program playing through a token): in words,
 * not an icon alone, so a screen reader says it too; the person who runs it is named when known.
 */
export const programWords = (owner: string | undefined): string =>
  owner ? `(program, run by ${owner})` : '(program)';
