/**
 * Renders docs/protocol.md from the schemas themselves (HTTP_ROUTES, SOCKET_EVENTS) with an example
 * for each message. Every example is parsed by its schema while rendering, so an example that no
 * longer fits its schema, or a route or event without an example, fails the build; a test compares
 * the rendered text with the committed file, so the document cannot drift from the code.
 */
import { z } from 'zod';
import { BOT_TOKEN_PREFIX } from './bots.ts';
import { ERROR_CODES } from './errors.ts';
import { HTTP_ROUTES } from './http-routes.ts';
import { MODERATION_ROUTES } from './moderation.ts';
import { gameRecordSchema, RECORD_VERSION } from './record.ts';
import { SOCKET_EVENTS } from './socket.ts';

const W = '6f1c2a4e-0000-4000-8000-000000000001';
const U = '0b7d9e1a-0000-4000-8000-000000000002';
const seat = {
  playerId: 'p1',
  userId: U,
  username: 'alaric',
  bot: null,
  standIn: null,
  seat: 0,
  colour: 'red',
  missedTurns: 0,
  left: false,
  removed: false,
  away: false,
};
const summary = {
  id: W,
  name: 'Migration Age',
  status: 'running',
  createdBy: 'alaric',
  createdAt: '2026-11-21T12:00:00.000Z',
  deadline: { mode: 'correspondence', hoursPerPhase: 24 },
  earlyResolution: true,
  maxPlayers: 6,
  access: 'public',
  reservedSeats: 0,
  spectators: true,
  victory: 'basic',
  version: 42,
  turn: 3,
  step: { kind: 'playerTurn', phase: 'movement' },
  deadlineAt: '2026-11-22T12:00:00.000Z',
  waitingFor: ['p1'],
  seats: [seat],
};
const user = { id: U, username: 'alaric', role: 'player' };
const botAccount = {
  id: '0b7d9e1a-0000-4000-8000-000000000003',
  username: 'alaric_bot',
  createdAt: '2026-11-29T08:00:00.000Z',
  bannedUntil: null,
  tokens: [
    {
      id: 'Hq3V0tq8hC1v9mWc2p4xYb7nR5sT6uZp1e2f3g4h5i6',
      label: 'laptop',
      createdAt: '2026-11-29T08:00:00.000Z',
      lastUsedAt: '2026-11-29T09:12:00.000Z',
    },
  ],
};
const status = {
  worldId: W,
  version: 42,
  status: 'running',
  stepKey: '3|p1|movement',
  deadlineAt: '2026-11-22T12:00:00.000Z',
  waitingFor: ['p1'],
  ready: [],
  pauseReason: null,
};
const patch = {
  worldId: W,
  from: 41,
  to: 42,
  ops: [{ op: 'replace', path: '/units/u7/area', value: 'dacia' }],
  events: [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] }],
};
const chat = {
  id: '17',
  worldId: W,
  from: { userId: U, username: 'alaric', playerId: 'p1' },
  to: null,
  body: 'Rome will fall.',
  at: '2026-11-21T12:05:00.000Z',
};

const mailSettings = {
  email: 'alaric@example.org',
  pendingEmail: null,
  verified: true,
  notify: 'each',
  digestHour: 8,
  timeZone: 'Europe/Amsterdam',
};

/** Request (body) and response examples, by route key. */
const HTTP_EXAMPLES: Record<keyof typeof HTTP_ROUTES, { body?: unknown; response: unknown }> = {
  health: {
    response: { status: 'ok', version: '0.1.0', uptimeSeconds: 12, database: { kind: 'postgres', up: true } },
  },
  healthLive: { response: { status: 'ok', uptimeSeconds: 12 } },
  healthReady: {
    response: { status: 'ok', version: '0.1.0', uptimeSeconds: 12, database: { kind: 'postgres', up: true } },
  },
  metrics: {
    response:
      '# HELP bke_orders_total Orders received over sockets, by outcome.\n# TYPE bke_orders_total counter\nbke_orders_total{outcome="accepted"} 42\n',
  },
  signup: {
    body: {
      username: 'alaric',
      password: 'visigoths410',
      email: 'alaric@example.org',
      timeZone: 'Europe/Amsterdam',
    },
    response: { user },
  },
  login: { body: { username: 'alaric', password: 'visigoths410' }, response: { user } },
  logout: { body: {}, response: { ok: true } },
  changePassword: { body: { current: 'visigoths410', next: 'ostrogoths493' }, response: { ok: true } },
  forgotPassword: { body: { account: 'alaric@example.org' }, response: { ok: true } },
  resetPassword: {
    body: { token: 'kq3V0tq8hC1v9mWc2p4xYb7nR5sT6uZa1e2f3g4h5i6', password: 'ostrogoths493' },
    response: { username: 'alaric' },
  },
  me: { response: { user } },
  combatTable: {
    response: {
      source: 'Reconstruction of the lost printed table (rules reference C.1.b).',
      columns: ['1-1', '2-1'],
      rows: [
        { roll: 2, results: ['AE', 'AR3'] },
        { roll: 12, results: ['DR2', 'DE'] },
      ],
      chances: {
        '1-1': [
          { result: 'AE', chance: 0.5 },
          { result: 'DR2', chance: 0.5 },
        ],
        '2-1': [
          { result: 'AR3', chance: 0.5 },
          { result: 'DE', chance: 0.5 },
        ],
      },
    },
  },
  profile: {
    response: {
      username: 'alaric',
      since: '2026-01-01T10:00:00.000Z',
      worlds: [{ id: W, name: 'Migration Age', status: 'running', colour: 'red', left: false }],
      cycles: [
        {
          worldId: W,
          worldName: 'Migration Age',
          number: 1,
          position: 'GERMAN 1',
          startTurn: 1,
          kingdomTurn: 10,
          empireTurn: null,
          endTurn: null,
          endReason: null,
          vp: 57,
        },
      ],
      ratings: { all: { rating: 1528, uncertainty: 231, provisional: true, results: 1 } },
      ratingHistory: [
        {
          at: '2026-02-01T10:00:00.000Z',
          worldId: W,
          worldName: 'Migration Age',
          rank: 1,
          before: 1500,
          after: 1528,
        },
      ],
      results: [
        {
          worldId: W,
          worldName: 'Migration Age',
          at: '2026-02-01T10:00:00.000Z',
          rank: 1,
          of: 4,
          victory: 'basic',
          rated: true,
        },
      ],
      botsFaced: ['normal'],
    },
  },
  leaderboard: {
    response: {
      pool: 'all',
      rows: [{ rank: 1, username: 'alaric', rating: 1612, uncertainty: 180, results: 9 }],
      provisional: 4,
    },
  },
  finalTable: {
    response: {
      worldId: W,
      victory: 'basic',
      rated: true,
      rows: [
        {
          playerId: 'p1',
          username: 'alaric',
          bot: null,
          rank: 1,
          score: 57,
          ratingBefore: 1500,
          ratingAfter: 1528,
          provisional: true,
        },
        {
          playerId: 'p2',
          username: null,
          bot: 'normal',
          rank: 2,
          score: 41,
          ratingBefore: null,
          ratingAfter: null,
          provisional: null,
        },
      ],
    },
  },
  listWorlds: { response: { worlds: [summary] } },
  listFinishedWorlds: {
    response: {
      worlds: [
        {
          ...summary,
          status: 'closed',
          deadlineAt: null,
          waitingFor: [],
          closedAt: '2026-12-20T18:00:00.000Z',
          standings: [
            {
              playerId: 'p1',
              name: 'alaric',
              colour: 'red',
              bot: false,
              bestCycle: 57,
              totalVp: 81,
              turnsPlayed: 30,
              average: 2.7,
            },
          ],
        },
      ],
    },
  },
  createWorld: {
    body: {
      name: 'Migration Age',
      options: { victory: 'basic', opt: { byzantium: true } },
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: true,
      maxPlayers: 6,
    },
    response: {
      world: { ...summary, status: 'open', version: 0, turn: 0, step: { kind: 'idle' }, seats: [] },
    },
  },
  playAgain: {
    body: { name: 'Migration Age, again' },
    response: {
      world: { ...summary, status: 'open', version: 0, turn: 0, step: { kind: 'idle' }, seats: [seat] },
    },
  },
  worldAccess: {
    response: {
      who: 'invitation',
      reservedSeats: 0,
      spectators: false,
      link: true,
      invited: [{ username: 'brunhild', via: 'name' }],
    },
  },
  changeWorldAccess: {
    body: { spectators: true },
    response: { who: 'invitation', reservedSeats: 0, spectators: true, link: true, invited: [] },
  },
  inviteByName: {
    body: { username: 'brunhild' },
    response: {
      who: 'private',
      reservedSeats: 0,
      spectators: true,
      link: false,
      invited: [{ username: 'brunhild', via: 'name' }],
    },
  },
  newInviteLink: { body: {}, response: { token: 'q3Vx2mS0cN1rT8wYb5kLz7aH4dPf6gJi9uE0oR2tW1s' } },
  revokeInviteLink: { body: {}, response: { ok: true } },
  acceptInvite: { body: {}, response: { worldId: W, name: 'Migration Age' } },
  getWorld: {
    response: {
      world: summary,
      options: { victory: 'basic', opt: {}, cfg: {} },
      cycles: [
        {
          playerId: 'p1',
          number: 1,
          position: 'GOTH',
          startTurn: 1,
          kingdomTurn: null,
          empireTurn: null,
          endTurn: null,
          endReason: null,
          vp: 4,
        },
      ],
      sheet: [
        {
          player: 'p1',
          cycle: 1,
          turn: 2,
          tax: 4,
          other: 0,
          vpTotal: 4,
          available: 4,
          upkeep: 1,
          purchases: 0,
          administration: 1,
          treasury: 2,
          adminPercent: 20,
          adminResult: { roll: 7, result: 'rebellion', rebellions: [3, 4], becameEmpire: false },
        },
      ],
    },
  },
  replayTurn: {
    response: {
      turn: 3,
      start: { seq: 40, view: { turn: 2, units: { u7: { kind: 'tribe', owner: 'p1', area: 'sarmatia' } } } },
      steps: [
        {
          seq: 41,
          ops: [
            { op: 'replace', path: '/turn', value: 3 },
            { op: 'replace', path: '/units/u7/area', value: 'dacia' },
          ],
          events: [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] }],
        },
      ],
    },
  },
  sinceLast: {
    response: {
      player: 'p1',
      fromVersion: 120,
      toVersion: 410,
      fromTurn: 4,
      toTurn: 14,
      turnsPassed: 10,
      vpWon: 6,
      vpLost: 0,
      lines: [
        { kind: 'joined', turn: 5, seq: 150, player: 'p4' },
        {
          kind: 'battle',
          turn: 7,
          seq: 231,
          role: 'defender',
          against: 'p2',
          area: 'dacia',
          odds: '2-1',
          result: 'DR',
        },
        { kind: 'stage', turn: 9, seq: 300, player: 'p1', stage: 'kingdom', reason: null },
        { kind: 'vp', turn: 12, seq: 377, vp: 6, total: 18 },
        { kind: 'chat', turn: 13, seq: 395, from: 'p2', body: 'Truce on the Danube?' },
      ],
      more: 0,
    },
  },
  worldHistory: {
    response: {
      events: [
        {
          seq: 41,
          index: 0,
          turn: 3,
          event: { type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] },
        },
      ],
      more: true,
    },
  },
  sinceLastSeen: { body: { version: 410 }, response: { seenVersion: 410 } },
  worldRecord: {
    response: {
      format: 'bke-record',
      version: 1,
      kind: 'viewer',
      rulesVersion: 'bke-open-1',
      mapVersion: '90d0475130e5',
      world: { id: W, name: 'Migration Age', status: 'running', takenAt: '2026-11-22T12:00:00.000Z' },
      viewer: { seats: ['p1'] },
      setup: { options: {}, players: [] },
      orders: [
        {
          seq: 1,
          at: '2026-11-21T12:00:00.000Z',
          actor: 'system',
          kind: 'system',
          order: { type: 'join', player: 'p1', name: 'alaric', seat: 0, colour: 'red' },
          events: [{ type: 'playerJoined', player: 'p1', seat: 0, turn: 1 }],
        },
        {
          seq: 41,
          at: '2026-11-21T12:04:00.000Z',
          actor: 'p1',
          kind: 'player',
          order: { type: 'move', unit: 'u7', path: ['sarmatia', 'dacia'] },
          events: [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] }],
        },
        { seq: 42, at: '2026-11-21T12:05:00.000Z', events: [] },
      ],
      final: { turn: 3 },
    },
  },
  joinWorld: { body: { colour: 'red' }, response: { world: summary, seat } },
  leaveWorld: { body: {}, response: { world: summary } },
  setAway: { body: { away: true, standIn: 'strong' }, response: { away: true, standIn: 'strong' } },
  addBot: { body: { level: 'strong' }, response: { playerId: 'p2' } },
  removeBot: { body: {}, response: { ok: true } },
  botOrders: {
    response: {
      orders: [
        {
          seq: 57,
          turn: 4,
          bot: 'strong',
          order: { type: 'move', unit: 'u7', path: ['dacia'] },
          events: [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['dacia'] }],
          at: '2026-11-22T12:00:00.000Z',
        },
      ],
    },
  },
  getNotifications: { response: { webhookUrl: null } },
  setNotifications: {
    body: { webhookUrl: 'https://discord.com/api/webhooks/123/abc' },
    response: { webhookUrl: 'https://discord.com/api/webhooks/123/abc' },
  },
  testNotifications: { body: {}, response: { delivered: true, status: 204 } },
  getProfilePrivacy: { response: { hidden: false } },
  setProfilePrivacy: { body: { hidden: true }, response: { hidden: true } },
  accountExport: {
    response: {
      exportedAt: '2026-11-21T12:00:00.000Z',
      account: {
        username: 'alaric',
        email: 'alaric@example.org',
        createdAt: '2026-11-01T09:00:00.000Z',
        profileHidden: false,
        notifyMode: 'each',
        timeZone: 'Europe/Amsterdam',
        webhookUrl: null,
      },
      worlds: [{ worldId: W, name: 'Friday night', playerId: 'p1', joinedAt: '2026-11-20T18:00:00.000Z' }],
      notes: [
        {
          worldId: W,
          worldName: 'Friday night',
          body: 'Watch the Franks.',
          updatedAt: '2026-11-21T11:00:00.000Z',
        },
      ],
      blocked: [{ username: 'odoacer', since: '2026-11-21T11:00:00.000Z' }],
    },
  },
  getBlocks: {
    response: { blocked: [{ userId: U, username: 'odoacer', since: '2026-11-21T11:00:00.000Z' }] },
  },
  setBlock: {
    body: { username: 'odoacer', blocked: true },
    response: { blocked: [{ userId: U, username: 'odoacer', since: '2026-11-21T11:00:00.000Z' }] },
  },
  getNote: { response: { body: 'Watch the Franks.', updatedAt: '2026-11-21T11:00:00.000Z' } },
  saveNote: {
    body: { body: 'Watch the Franks. Ask Gaiseric about Carthage.' },
    response: {
      body: 'Watch the Franks. Ask Gaiseric about Carthage.',
      updatedAt: '2026-11-21T11:05:00.000Z',
    },
  },
  getMail: { response: mailSettings },
  setMailPrefs: {
    body: { notify: 'digest', digestHour: 7, timeZone: 'Europe/Amsterdam' },
    response: { ...mailSettings, notify: 'digest', digestHour: 7, timeZone: 'Europe/Amsterdam' },
  },
  setEmail: {
    body: { email: 'alaric@example.net', password: 'visigoths410' },
    response: { ...mailSettings, pendingEmail: 'alaric@example.net' },
  },
  verifyEmail: {
    body: { token: 'Zp1e2f3g4h5i6kq3V0tq8hC1v9mWc2p4xYb7nR5sT6u' },
    response: { email: 'alaric@example.net' },
  },
  listBots: { response: { bots: [botAccount] } },
  createBot: {
    body: { username: 'alaric_bot', label: 'laptop' },
    response: { bot: botAccount, token: `${BOT_TOKEN_PREFIX}q8Xc0vT3n1Lk5pR7sW9yB2dF4gH6jM8nQ0rS2tU4vW6` },
  },
  createBotToken: {
    body: { label: 'server' },
    response: { bot: botAccount, token: `${BOT_TOKEN_PREFIX}m2N4p6Q8r0S2t4U6v8W0x2Y4z6A8b0C2d4E6f8G0h2J` },
  },
  revokeBotToken: { body: {}, response: { bots: [{ ...botAccount, tokens: [] }] } },
  seatedWorlds: {
    response: {
      worlds: [
        { worldId: W, name: 'Migration Age', status: 'running', playerId: 'p3', version: 42, yourMove: true },
      ],
    },
  },
  seatView: {
    response: {
      worldId: W,
      playerId: 'p3',
      version: 42,
      view: { turn: 3, step: { kind: 'playerTurn' }, viewer: 'p3' },
      legal: [{ type: 'endPhase' }],
      status,
    },
  },
  seatOrder: {
    body: { version: 42, order: { type: 'endPhase' } },
    response: { ok: true, version: 43, deferred: false },
  },
};

const SOCKET_EXAMPLES: {
  clientToServer: Record<keyof typeof SOCKET_EVENTS.clientToServer, { payload: unknown; result: unknown }>;
  serverToClient: Record<keyof typeof SOCKET_EVENTS.serverToClient, unknown>;
} = {
  clientToServer: {
    'world/subscribe': {
      payload: { worldId: W, version: 40 },
      result: {
        role: 'player',
        playerId: 'p1',
        sync: { kind: 'patches', patches: [{ ...patch, from: 40, to: 41 }, patch] },
        status,
        legal: [{ type: 'endPhase' }],
        chat: [chat],
        recent: [{ seq: 41, index: 0, turn: 3, event: { type: 'turnStarted', turn: 3 } }],
      },
    },
    'world/unsubscribe': { payload: { worldId: W }, result: {} },
    'world/order': {
      payload: { worldId: W, version: 41, order: { type: 'move', unit: 'u7', path: ['sarmatia', 'dacia'] } },
      result: { version: 42, deferred: false },
    },
    'world/planCost': {
      payload: {
        worldId: W,
        plan: {
          disband: [],
          garrisonDisband: [],
          purchases: [{ kind: 'infantry', area: 'rome' }],
          adminPercent: 20,
        },
      },
      result: {
        cost: {
          tax: 12,
          other: 0,
          available: 14,
          upkeep: 5,
          purchases: 2,
          administration: 3,
          adminPercent: 20,
          treasury: 4,
          problem: null,
        },
      },
    },
    'chat/send': { payload: { worldId: W, to: null, body: 'Rome will fall.' }, result: { message: chat } },
  },
  serverToClient: {
    hello: { serverVersion: '0.1.0', serverTime: '2026-11-21T12:00:00.000Z', user },
    'world/view': {
      worldId: W,
      version: 42,
      view: { turn: 3, step: { kind: 'playerTurn' }, viewer: 'p1' },
      legal: [{ type: 'endPhase' }],
    },
    'world/patch': { ...patch, legal: [{ type: 'endPhase' }] },
    'world/status': status,
    'chat/message': chat,
    'chat/deleted': { worldId: W, id: '5f0c0d2e-6a51-4d38-9a43-0a4c1c1c9a11' },
    'server/database': { up: false },
    error: { code: 'socket/rate_limited' },
  },
};

function checked(schema: z.ZodType, example: unknown, where: string): string {
  const r = schema.safeParse(example);
  if (!r.success) throw new Error(`docs/protocol.md: the example for ${where} does not fit its schema`);
  return JSON.stringify(example, null, 2);
}

const json = (s: string) => ['```json', s, '```'].join('\n');
const schemaOf = (s: z.ZodType) => {
  try {
    return JSON.stringify(z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }), null, 2);
  } catch {
    return '(not representable as JSON Schema)';
  }
};
const details = (title: string, body: string) =>
  ['<details><summary>' + title + '</summary>', '', json(body), '', '</details>'].join('\n');

export function renderProtocolDoc(): string {
  const out: string[] = [
    '# BKE Online wire protocol',
    '',
    '<!-- Generated by `npx tsx apps/server/src/cli/protocol-doc.ts` from packages/protocol; do not edit by hand.',
    '     A test fails when this file and the schemas drift apart. -->',
    '',
    'Everything the web client and the server say to each other. HTTP bodies are JSON; errors are',
    '`{ "error": { "code": "…", "message": "…", …params } }` with a code from the list at the end.',
    'State-changing requests (POST) must send the header `x-bke-csrf: 1` and, from a browser, an',
    "Origin equal to the server's own. The session is the httpOnly, SameSite=Lax cookie `bke_session`",
    'set by sign-up and log-in; Socket.IO reads the same cookie at the handshake.',
    '',
    'Socket.IO: every client → server event is sent with an acknowledgement callback and answered',
    '`{ "ok": true, …result }` or `{ "ok": false, "error": { "code": "…", … } }`. A view is versioned:',
    '`world/patch` takes it from `from` to `to = from + 1` (JSON Patch, RFC 6902: add, remove, replace).',
    'An order made against another version is refused with `sync/stale` and a fresh `world/view` is',
    'pushed. A client that reconnects subscribes with the last version it holds and receives the missed',
    'patches, or a full view when it is more than 200 versions behind; a player gets the full view',
    'as soon as it is more than 50 behind (the server keeps its own patches of the latest 50 orders).',
    'A player whose private part of the view (its own realm entry, lease offers it is party to)',
    'an order changed gets, instead of that order’s patch, a fresh `world/view` whose `replaces`',
    'lists the events of each order it stands in for.',
    '',
    '## HTTP routes',
    '',
  ];
  for (const [key, route] of Object.entries(HTTP_ROUTES)) {
    const ex = HTTP_EXAMPLES[key as keyof typeof HTTP_ROUTES];
    out.push(`### \`${route.method} ${route.path}\``, '', route.summary, '');
    out.push(`Sign-in required: ${route.auth ? 'yes' : 'no'}.`, '');
    if ('body' in route && route.body) {
      out.push('Request body:', '', json(checked(route.body, ex.body, `${key} body`)), '');
      out.push(details('request schema', schemaOf(route.body)), '');
    }
    out.push('Response:', '', json(checked(route.response, ex.response, `${key} response`)), '');
  }
  out.push(
    `## Game record format (version ${RECORD_VERSION})`,
    '',
    'What `GET /api/worlds/:id/record` answers and `npm run -s engine -- replay <file>` reads: a',
    "`complete` record (the seed, every order with its actor and time, the final state's hash) or a",
    '`viewer` record (what one viewer of a world in play could see). docs/game-records.md says what',
    "each holds and what a viewer's record withholds. Every record the server or the engine writes",
    'is checked against this schema by the tests.',
    '',
    details('record schema', schemaOf(gameRecordSchema)),
    '',
  );
  out.push(
    '## Moderation routes',
    '',
    'Each needs the role named (`moderator` also admits admins; `user` any signed-in account) and a',
    '`reason`, which lands in the append-only audit log. Schemas from packages/protocol/src/moderation.ts.',
    '',
  );
  for (const route of Object.values(MODERATION_ROUTES)) {
    out.push(`### \`${route.method} ${route.path}\``, '', route.summary, '', `Role: ${route.level}.`, '');
    if ('body' in route && route.body) out.push(details('request schema', schemaOf(route.body)), '');
    out.push(details('response schema', schemaOf(route.response)), '');
  }
  out.push('## Socket.IO: client → server', '');
  for (const [event, spec] of Object.entries(SOCKET_EVENTS.clientToServer)) {
    const ex = SOCKET_EXAMPLES.clientToServer[event as keyof typeof SOCKET_EVENTS.clientToServer];
    out.push(
      `### \`${event}\``,
      '',
      'Payload:',
      '',
      json(checked(spec.payload, ex.payload, `${event} payload`)),
      '',
    );
    out.push(details('payload schema', schemaOf(spec.payload)), '');
    out.push(
      'Acknowledgement (`ok: true` plus):',
      '',
      json(checked(spec.result, ex.result, `${event} result`)),
      '',
    );
  }
  out.push('## Socket.IO: server → client', '');
  for (const [event, schema] of Object.entries(SOCKET_EVENTS.serverToClient)) {
    const ex = SOCKET_EXAMPLES.serverToClient[event as keyof typeof SOCKET_EVENTS.serverToClient];
    out.push(`### \`${event}\``, '', json(checked(schema, ex, event)), '');
    out.push(details('payload schema', schemaOf(schema)), '');
  }
  out.push(
    '## Error codes',
    '',
    "Every code a client can receive, closed: the server's own, then the engine's rule codes",
    '(such as `order/not_your_turn`), which pass through unchanged:',
    '',
  );
  for (const code of ERROR_CODES) out.push(`- \`${code}\``);
  out.push('');
  return out.join('\n');
}
