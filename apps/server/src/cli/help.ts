import path from 'node:path';
import { z } from 'zod';

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

/**
 * The one file a tool takes (`<file>`), parsed with zod; the usage and exit 2 when it is missing or
 * more are given. A relative path is taken from the folder the operator ran npm in (npm runs
 * scripts from the package's folder; INIT_CWD is where the command was typed).
 */
export function fileArgument(usage: string, argv: readonly string[] = process.argv.slice(2)): string {
  const args = z.tuple([z.string().min(1).max(4096)]).safeParse(argv);
  if (!args.success) {
    console.error(usage);
    process.exit(2);
  }
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), args.data[0]);
}
