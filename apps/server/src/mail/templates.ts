/**
 * Every message the server mails, in plain text and simple HTML with the same words. Each template
 * returns subject, text and HTML; the outbox adds the addresses and headers.
 */

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

/** Text made safe to put inside HTML, attributes included. */
export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A paragraph of text, or a link with its label: the pieces a message is made of. */
type Piece = string | { link: string; label: string } | { list: string[] };

function render(subject: string, pieces: Piece[], footer: Piece[] = []): Rendered {
  const text = [...pieces, ...(footer.length ? ['--', ...footer] : [])]
    .map((p) =>
      typeof p === 'string'
        ? p
        : 'link' in p
          ? `${p.label}:\n${p.link}`
          : p.list.map((l) => `- ${l}`).join('\n'),
    )
    .join('\n\n');
  const htmlPiece = (p: Piece, small = false) => {
    const style = small ? ' style="color:#666;font-size:12px"' : '';
    if (typeof p === 'string') return `<p${style}>${escapeHtml(p)}</p>`;
    if ('link' in p) return `<p${style}><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a></p>`;
    return `<ul>${p.list.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
  };
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.4;max-width:36em">` +
    pieces.map((p) => htmlPiece(p)).join('') +
    (footer.length ? `<hr>${footer.map((p) => htmlPiece(p, true)).join('')}` : '') +
    '</body></html>';
  return { subject, text: `${text}\n`, html };
}

export function verifyEmailMail(m: { username: string; url: string; hours: number }): Rendered {
  return render('Confirm your e-mail address for BKE Online', [
    `Hello ${m.username},`,
    'Someone (we hope you) gave this address to the BKE Online account above. Open the link to confirm it; until then nothing else is sent here.',
    { link: m.url, label: 'Confirm this address' },
    `The link works once, for ${m.hours} hours. If the account is not yours, ignore this message.`,
  ]);
}

export function addressInUseMail(m: { url: string }): Rendered {
  return render('Your address was given to another BKE Online account', [
    'Someone tried to add this e-mail address to another BKE Online account. It stays with your account; nothing changed.',
    'If you forgot your password, you can set a new one from the log-in page:',
    { link: m.url, label: 'Log in' },
  ]);
}

export function emailChangedMail(m: { username: string; next: string | null }): Rendered {
  return render('Your BKE Online e-mail address was changed', [
    `Hello ${m.username},`,
    m.next
      ? `This address is no longer used by your account: mail now goes to ${m.next} once that address is confirmed.`
      : 'Your account no longer has an e-mail address: no more mail goes to this one.',
    'If you did not do this, log in and change your password at once.',
  ]);
}

export function passwordResetMail(m: { username: string; url: string; minutes: number }): Rendered {
  return render('Set a new BKE Online password', [
    `Hello ${m.username},`,
    'Someone asked to set a new password for this account. Open the link to choose one:',
    { link: m.url, label: 'Choose a new password' },
    `The link works once, for ${m.minutes} minutes. If you did not ask, ignore this message: your password stays as it is.`,
  ]);
}

export function passwordChangedMail(m: { username: string; when: string; url: string }): Rendered {
  return render('Your BKE Online password was changed', [
    `Hello ${m.username},`,
    `The password of your account was changed (${m.when}). Every browser that was logged in has been logged out.`,
    'If this was not you, set a new password at once from the log-in page ("Forgot password?"):',
    { link: m.url, label: 'Log in' },
  ]);
}

/** One world that waits for the player, as a message names it. */
export interface WaitingWorld {
  name: string;
  turn: number;
  /** The step in words ("movement", "the economic phase"). */
  step: string;
  /** The deadline in the player's time zone, in words; null when the world has none now. */
  deadline: string | null;
  url: string;
  /** What happened since the player's last visit, in words (mail/since-last-words.ts); digests only. */
  sinceLast?: string | null;
}

const worldLine = (w: WaitingWorld) =>
  `${w.name}: turn ${w.turn}, ${w.step}${w.deadline ? `; deadline ${w.deadline}` : ''}${w.sinceLast ? ` — ${w.sinceLast}` : ''}`;

/** The footer of "your move" mail: why it came and how to stop it in one click. */
function turnFooter(m: { settingsUrl: string; unsubscribeUrl: string }): Piece[] {
  return [
    'You get this because you asked BKE Online to mail you when it is your move.',
    { link: m.settingsUrl, label: 'Change what is mailed to you' },
    { link: m.unsubscribeUrl, label: 'Stop these e-mails (one click)' },
  ];
}

export function yourMoveMail(m: {
  username: string;
  world: WaitingWorld;
  settingsUrl: string;
  unsubscribeUrl: string;
}): Rendered {
  const w = m.world;
  return render(
    `Your move in ${w.name} (turn ${w.turn})`,
    [
      `Hello ${m.username},`,
      `${w.name} is waiting for you: turn ${w.turn}, ${w.step}.`,
      w.deadline
        ? `Deadline: ${w.deadline}. If you do not act by then, your seat's default orders hold the position.`
        : 'There is no deadline on this step.',
      { link: w.url, label: `Open ${w.name}` },
    ],
    turnFooter(m),
  );
}

export function reminderMail(m: {
  username: string;
  world: WaitingWorld;
  left: string;
  settingsUrl: string;
  unsubscribeUrl: string;
}): Rendered {
  const w = m.world;
  return render(
    `Reminder: ${m.left} left in ${w.name}`,
    [
      `Hello ${m.username},`,
      `${w.name} is still waiting for you, and the deadline is close: ${m.left} left (${w.deadline ?? 'soon'}).`,
      `Turn ${w.turn}, ${w.step}. If you do not act in time, your seat's default orders hold the position.`,
      { link: w.url, label: `Open ${w.name}` },
    ],
    turnFooter(m),
  );
}

export function digestMail(m: {
  username: string;
  day: string;
  worlds: WaitingWorld[];
  settingsUrl: string;
  unsubscribeUrl: string;
}): Rendered {
  const n = m.worlds.length;
  return render(
    n === 1 ? `BKE Online: 1 world waits for you` : `BKE Online: ${n} worlds wait for you`,
    [
      `Hello ${m.username},`,
      `Your daily digest for ${m.day}: ${n === 1 ? 'this world waits' : 'these worlds wait'} for your move.`,
      { list: m.worlds.map(worldLine) },
      ...m.worlds.map((w) => ({ link: w.url, label: `Open ${w.name}` })),
    ],
    turnFooter(m),
  );
}
