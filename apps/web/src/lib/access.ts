/**
 * Who may join a world, as the web shows it: the create form's choice, the invitation link (kept in
 * this browser, since the server keeps only its hash and shows a token once), and the calls of the
 * world's creator (or a moderator) that change them.
 */
import type { AccessSettings, WorldAccess } from '@bke/protocol';
import { call } from './api.ts';

/** The "Who may join" part of the create form. */
export interface AccessForm {
  who: WorldAccess;
  spectators: boolean;
  /** Account names to invite, separated by commas or spaces. */
  invite: string;
}

export const ACCESS_CHOICES: readonly [WorldAccess, string, string][] = [
  ['public', 'Public', 'Listed in the lobby; anyone may take a free seat.'],
  [
    'invitation',
    'By invitation',
    'Only people with its link, or invited by name, see it and may join. You get a link to send them.',
  ],
  ['private', 'Private', 'Only the people you invite by name see it and may join. No link.'],
];

export const newAccessForm = (): AccessForm => ({ who: 'public', spectators: true, invite: '' });

export function accessBody(f: AccessForm): AccessSettings {
  const invite = f.invite.split(/[\s,]+/).filter(Boolean);
  return { who: f.who, spectators: f.spectators, invite };
}

/** The invitation link of a token: the web's own address, opened at #/invite/<token>. */
export const inviteUrl = (token: string): string =>
  `${location.origin}${location.pathname}#/invite/${encodeURIComponent(token)}`;

const KEY = (worldId: string) => `bke.invite.${worldId}`;
/** The link this browser was shown for the world (its token is shown once). */
export function keptLink(worldId: string): string | null {
  try {
    return localStorage.getItem(KEY(worldId));
  } catch {
    return null;
  }
}
export function keepLink(worldId: string, token: string | null): void {
  try {
    if (token) localStorage.setItem(KEY(worldId), token);
    else localStorage.removeItem(KEY(worldId));
  } catch {
    // No storage (private browsing): the link is shown until the page is left.
  }
}

/** An invitation opened before logging in, taken up once logged in. */
const PENDING = 'bke.invite.pending';
export function pendingInvite(): string | null {
  try {
    return sessionStorage.getItem(PENDING);
  } catch {
    return null;
  }
}
export function setPendingInvite(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(PENDING, token);
    else sessionStorage.removeItem(PENDING);
  } catch {
    // Without storage the invitation is opened again from its link after logging in.
  }
}

export const worldAccess = (id: string) => call('worldAccess', { params: { id } });
export const changeAccess = (id: string, body: { who?: WorldAccess; spectators?: boolean }) =>
  call('changeWorldAccess', { params: { id }, body });
export const inviteByName = (id: string, username: string) =>
  call('inviteByName', { params: { id }, body: { username } });
export async function newLink(id: string): Promise<string> {
  const { token } = await call('newInviteLink', { params: { id }, body: {} });
  keepLink(id, token);
  return token;
}
export async function revokeLink(id: string): Promise<void> {
  await call('revokeInviteLink', { params: { id }, body: {} });
  keepLink(id, null);
}
export const acceptInvite = (token: string) => call('acceptInvite', { params: { token }, body: {} });
