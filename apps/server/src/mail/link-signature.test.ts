import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSignedToken, signatureHolds } from './link-signature.ts';

const key = randomBytes(32);

/** The token with the character at `i` replaced by another base64url character. */
const flipped = (token: string, i: number) =>
  `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`;

describe('signed link tokens', () => {
  it('a token holds for its key and kind, and fits the protocol (at most 100 characters)', () => {
    const token = newSignedToken(key, 'reset_password');
    expect(signatureHolds(key, 'reset_password', token)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
  });

  it('a changed character in the random part or in the MAC is refused', () => {
    const token = newSignedToken(key, 'verify_email');
    expect(signatureHolds(key, 'verify_email', flipped(token, 5))).toBe(false);
    expect(signatureHolds(key, 'verify_email', flipped(token, token.length - 3))).toBe(false);
  });

  it("another kind's MAC, or another site's key, is refused", () => {
    const reset = newSignedToken(key, 'reset_password');
    expect(signatureHolds(key, 'verify_email', reset)).toBe(false);
    expect(signatureHolds(randomBytes(32), 'reset_password', reset)).toBe(false);
  });

  it('a token with a part missing, or a part too many, is refused', () => {
    const token = newSignedToken(key, 'reset_password');
    const [random = '', mac = ''] = token.split('.');
    expect(signatureHolds(key, 'reset_password', random)).toBe(false);
    expect(signatureHolds(key, 'reset_password', `${random}.`)).toBe(false);
    expect(signatureHolds(key, 'reset_password', `.${mac}`)).toBe(false);
    expect(signatureHolds(key, 'reset_password', mac)).toBe(false);
    expect(signatureHolds(key, 'reset_password', `${token}.${mac}`)).toBe(false);
    expect(signatureHolds(key, 'reset_password', `${random}.${mac.slice(0, -1)}`)).toBe(false);
  });
});
