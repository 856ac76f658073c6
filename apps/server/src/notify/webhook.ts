/**
 * Delivers one message to a player's webhook. The address is the player's input, so the request is
 * guarded against reaching inside the server's own network: only http(s), every address the name
 * resolves to must be public (public-address.ts; checked again at connect time, so DNS cannot swap it in between), no
 * redirects, a short timeout, a small body. Tests allow private addresses for a local receiver.
 */
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.ts';

export interface WebhookMessage {
  /** The line a chat channel shows (`content` for Discord, `text` for Slack). */
  text: string;
  /** Machine-readable details for other receivers. */
  data: Record<string, unknown>;
}

export type WebhookResult =
  | { delivered: true; status: number }
  | { delivered: false; status?: number; reason: string };

const TIMEOUT_MS = 5000;

/** Whether an address is anything but a public unicast address of another host (public-address.ts). */
export const isPrivateAddress = (address: string): boolean => !isPublicAddress(address);

/** A DNS lookup that fails for names resolving to a non-public address. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as { address: string; family: number }[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad || list.length === 0)
      return callback(
        Object.assign(new Error('the webhook address is not public'), { code: 'EPRIVATE' }),
        '',
        0,
      );
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    const first = list[0] as { address: string; family: number };
    callback(null, first.address, first.family);
  });
};

export function sendWebhook(
  url: string,
  message: WebhookMessage,
  options: { allowPrivate?: boolean } = {},
): Promise<WebhookResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ delivered: false, reason: 'not a web address' });
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    return Promise.resolve({ delivered: false, reason: 'only http and https addresses' });
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.resolve({ delivered: false, reason: 'the webhook address is not public' });
  const body = JSON.stringify({ content: message.text, text: message.text, bke: message.data });
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = lib.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'BKE-Online-notifier',
        },
        timeout: TIMEOUT_MS,
        ...(options.allowPrivate ? {} : { lookup: publicLookup }),
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        resolve(
          status >= 200 && status < 300
            ? { delivered: true, status }
            : { delivered: false, status, reason: `the webhook answered ${status}` },
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (e) => resolve({ delivered: false, reason: e.message }));
    req.end(body);
  });
}
