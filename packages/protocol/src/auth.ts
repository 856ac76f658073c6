/** Accounts: sign up, log in, log out, who am I. Bodies are JSON; see docs/protocol.md. */
import { z } from 'zod';
import { emailSchema, linkTokenSchema, timeZoneSchema } from './mail.ts';
import { lineText } from './text.ts';

const ROLES = ['player', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const usernameSchema = z
  .string()
  .trim()
  .min(3)
  .max(24)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only');
export const passwordSchema = lineText().min(8).max(200);

export const credentialsSchema = z.object({ username: usernameSchema, password: passwordSchema }).strict();

/**
 * Sign-up: a name, a password and, if the player wants mail, an address (verified by a link); the
 * time zone the player's mail tells deadlines in (the browser's, changed on the account page). A
 * zone this server does not know is left out rather than refusing the sign-up: the account keeps UTC.
 */
export const signupSchema = credentialsSchema
  .extend({ email: emailSchema.optional(), timeZone: timeZoneSchema.optional().catch(undefined) })
  .strict();

/** "Forgot password": an account name or an e-mail address. The answer never says whether it exists. */
export const forgotPasswordSchema = z.object({ account: lineText().trim().min(1).max(254) }).strict();
export const forgotPasswordResponseSchema = z.object({ ok: z.literal(true) });

export const resetPasswordSchema = z.object({ token: linkTokenSchema, password: passwordSchema }).strict();
export const resetPasswordResponseSchema = z.object({ username: z.string() });

/** A new password; the current one proves it is the owner asking. Every other session ends. */
export const passwordChangeSchema = z
  .object({ current: lineText().min(1).max(200), next: passwordSchema })
  .strict()
  .refine((b) => b.current !== b.next, { message: 'the new password is the current one', path: ['next'] });

const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  /** A bot account, signed in through its token (bots.ts). */
  bot: z.literal(true).optional(),
});
export type User = z.infer<typeof userSchema>;

export const authResponseSchema = z.object({ user: userSchema });
export const meResponseSchema = z.object({ user: userSchema.nullable() });
export const okResponseSchema = z.object({ ok: z.literal(true) });

/** Every state-changing request must carry this header (a cross-site form cannot set it). */
export const CSRF_HEADER = 'x-bke-csrf';
/** The session cookie's name (httpOnly, SameSite=Lax). */
export const SESSION_COOKIE = 'bke_session';
/**
 * A browser that once logged in to an account (httpOnly, a year): failed log-ins from elsewhere
 * slow that account down, but not for this browser, so an attacker cannot lock its owner out.
 */
export const DEVICE_COOKIE = 'bke_device';
