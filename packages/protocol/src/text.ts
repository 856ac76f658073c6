/**
 * Text people type. Control characters are refused everywhere (PostgreSQL cannot store a NUL; the
 * others are never typed and only serve to spoof or break what other people read), with the typed
 * code `text/control_characters` and the field's path beside it. Free text (chat, reasons) may hold
 * tabs and line breaks; names and addresses are one line.
 */
import { z } from 'zod';

export const CONTROL_CHARACTERS = 'text/control_characters';

/** C0 controls other than tab, line feed and carriage return; DEL; the C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's purpose
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** The same, and tab, line feed and carriage return too. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's purpose
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f]/;

export const hasControlCharacters = (s: string, allowBreaks = true): boolean =>
  (allowBreaks ? CONTROL : CONTROL_OR_BREAK).test(s);

const refusal = { message: 'control characters are not allowed', params: { code: CONTROL_CHARACTERS } };

/** Free text: any printable character, tabs and line breaks. */
export const freeText = () => z.string().refine((s) => !hasControlCharacters(s), refusal);
/** One line of text: no control character at all. */
export const lineText = () => z.string().refine((s) => !hasControlCharacters(s, false), refusal);

/**
 * The first string in `value` (an HTTP body, a query, a socket payload, at any depth, keys
 * included) holding a control character other than tab and line breaks: its path, or null.
 */
export function findControlCharacters(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return hasControlCharacters(value) ? path.join('.') || '(value)' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [k, v] of Object.entries(value)) {
    if (hasControlCharacters(k)) return [...path, '(key)'].join('.');
    const found = findControlCharacters(v, [...path, k], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Whether a zod error is a control-character refusal; its path when it is. */
export function controlCharacterPath(error: z.ZodError): string | null {
  for (const i of error.issues)
    if (i.code === 'custom' && (i.params as { code?: string } | undefined)?.code === CONTROL_CHARACTERS)
      return i.path.join('.');
  return null;
}
