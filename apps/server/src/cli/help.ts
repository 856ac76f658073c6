/**
 * `--help` (or `-h`) for the command-line tools: prints the usage and exits 0 before the tool opens
 * anything, so every script in package.json can be checked by running it with `--help`.
 */
export function exitOnHelp(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
}
