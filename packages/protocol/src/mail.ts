/**
 * E-mail on the account: the address (verified by a link), password reset by a link, and how the
 * player wants to hear that it is their move — never, each time, or in a daily digest at an hour of
 * their own time zone. Addresses are never shown to other players.
 */
import { z } from 'zod';
import { lineText } from './text.ts';

/** An e-mail address, compared and stored lower-cased. */
export const emailSchema = lineText()
  .trim()
  .max(254)
  .pipe(z.email({ error: 'an e-mail address such as name@example.org' }))
  .transform((s) => s.toLowerCase());

const NOTIFY_MODES = ['none', 'each', 'digest'] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/** An IANA time zone name this server knows (Europe/Amsterdam, America/New_York, UTC). */
export const timeZoneSchema = lineText()
  .min(1)
  .max(64)
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'a time zone name such as Europe/Amsterdam' },
  );

/** A link's token as it arrives from the e-mail (a random part and its MAC, base64url, joined by a dot). */
export const linkTokenSchema = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_.-]+$/, 'the token from the link');

export const mailPrefsSchema = z
  .object({
    notify: z.enum(NOTIFY_MODES),
    /** The hour (0–23, the player's time zone) the digest goes out. */
    digestHour: z.number().int().min(0).max(23),
    timeZone: timeZoneSchema,
  })
  .strict();

/** What the account page shows about mail. */
export const mailSettingsSchema = mailPrefsSchema.extend({
  /** The verified address, or null. */
  email: z.string().nullable(),
  /** An address whose verification link was sent and not yet opened (within its validity). */
  pendingEmail: z.string().nullable(),
  /** Whether mail can be sent at all (a verified address). */
  verified: z.boolean(),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

/** Sets, changes (verified again by a link) or removes (null) the address; the password proves it is the owner. */
export const setEmailSchema = z
  .object({ email: emailSchema.nullable(), password: lineText().min(1).max(200) })
  .strict();

export const verifyEmailSchema = z.object({ token: linkTokenSchema }).strict();
export const verifyEmailResponseSchema = z.object({ email: z.string() });
