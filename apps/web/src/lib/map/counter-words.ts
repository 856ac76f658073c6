/** What a counter's printed numbers mean, for its tooltip (2.3): "(1)-1", "2-3", "+1". */
export function faceMeaning(face: string): string {
  if (face === '+1') return 'no strength of its own; shifts its side’s odds one column';
  const m = /^(\()?(\d+)\)?-(\d+)$/.exec(face);
  if (!m) return '';
  const [, bracket, strength, move] = m;
  const moves = move === '0' ? 'never moves' : `moves ${move} area${move === '1' ? '' : 's'}`;
  return bracket
    ? `strength ${strength} in defence only (it does not attack), ${moves}`
    : `strength ${strength}, ${moves}`;
}
