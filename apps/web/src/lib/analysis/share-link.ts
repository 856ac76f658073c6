/**
 * A shared position in the address (#/analysis/<code>): the position's JSON, compressed with the
 * browser's own deflate (CompressionStream, no library needed) and written in base64url so that it
 * survives any address bar. Reading a code back refuses, with a typed code and no exception, text
 * that is not base64url, does not inflate, is larger than any position, or is not JSON; the
 * position's fields are then checked by the engine's zod format (`parsePositionLink`).
 */
import { type PositionResult, parsePositionLink, refusePosition } from '@bke/engine';

/** Longer than any position's code (a late 6-player world is ~15 KB of code); more is refused unread. */
export const MAX_CODE_CHARS = 400_000;
/** Larger than any position's JSON; a code that inflates past it is refused (a zip bomb in a link). */
export const MAX_POSITION_BYTES = 8 * 1024 * 1024;

const toBase64url = (bytes: Uint8Array): string => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64url = (code: string): Uint8Array => {
  const b64 = code.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number) {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The code of a position (whatever `sharePosition` gave), for the address. */
export async function encodePosition(link: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(link));
  const packed = await pipe(bytes, new CompressionStream('deflate-raw'), Number.POSITIVE_INFINITY);
  return toBase64url(packed ?? new Uint8Array());
}

/** A code read back: the link's content, checked against the position format, or why not. */
export async function decodePosition(code: string): Promise<PositionResult<unknown>> {
  const unreadable = (why: string) => refusePosition<unknown>('position/unreadable', why);
  if (code.length === 0 || code.length > MAX_CODE_CHARS || !/^[A-Za-z0-9_-]+$/.test(code))
    return unreadable('the link is cut short or has characters a position link never has');
  let bytes: Uint8Array | null;
  try {
    bytes = await pipe(fromBase64url(code), new DecompressionStream('deflate-raw'), MAX_POSITION_BYTES);
  } catch {
    return unreadable('the link does not unpack: part of it is missing or changed');
  }
  if (!bytes) return unreadable('the link unpacks to more than any position holds');
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return unreadable('the link unpacks to something other than a position');
  }
  const parsed = parsePositionLink(raw);
  return parsed.ok ? { ok: true, value: raw } : parsed;
}
