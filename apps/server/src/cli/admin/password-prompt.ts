/**
 * A new password for the admin CLI, never from argv (other users of the machine can read it):
 * from `BKE_ADMIN_PASSWORD` when set; on a terminal, typed twice at a prompt that does not echo
 * (npm's `read`, which mutes the terminal's output while the line is typed); otherwise the first
 * line of stdin, for scripts.
 */
import { createInterface } from 'node:readline';
import { passwordSchema } from '@bke/protocol';
import { read } from 'read';

export type PasswordResult = { ok: true; password: string } | { ok: false; words: string };

async function firstLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}

const silently = (prompt: string) =>
  read({ prompt, silent: true, replace: '', input: process.stdin, output: process.stderr });

export async function readNewPassword(env: NodeJS.ProcessEnv = process.env): Promise<PasswordResult> {
  let typed: string;
  if (env.BKE_ADMIN_PASSWORD) typed = env.BKE_ADMIN_PASSWORD;
  else if (process.stdin.isTTY) {
    typed = await silently('New password: ');
    if ((await silently('The same again: ')) !== typed)
      return { ok: false, words: 'The two passwords differ; nothing was changed.' };
  } else typed = await firstLine();
  const parsed = passwordSchema.safeParse(typed);
  return parsed.success
    ? { ok: true, password: parsed.data }
    : { ok: false, words: 'The password must be 8 to 200 characters; nothing was changed.' };
}
