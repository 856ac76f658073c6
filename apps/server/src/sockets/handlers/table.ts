/** Every event a client may send, with its handler (each declared with its schema in its own file). */
import { chatSend } from './chat-send.ts';
import { order } from './order.ts';
import { planCost } from './plan-cost.ts';
import { subscribe } from './subscribe.ts';
import { unsubscribe } from './unsubscribe.ts';

export const HANDLERS = [subscribe, unsubscribe, order, planCost, chatSend] as const;

export const KNOWN_EVENTS: ReadonlySet<string> = new Set(HANDLERS.map((h) => h.event));
