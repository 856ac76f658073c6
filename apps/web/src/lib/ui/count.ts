/** A number with its noun in the right form: "1 unit", "3 units", "1 city", "2 cities". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
