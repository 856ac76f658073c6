/** The address of the replay at one moment of a world: its turn, at the step of the order `seq`. */
export function replayHref(worldId: string, at: { turn: number; seq: number }): string {
  return `#/world/${encodeURIComponent(worldId)}/replay/${at.turn}/${at.seq}`;
}
