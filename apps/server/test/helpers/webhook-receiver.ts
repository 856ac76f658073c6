/** A webhook receiver on a loopback port: what players' "your move" lines would reach. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver<T> {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  /** Every body received, parsed, in order. */
  received: T[];
  close(): void;
}

export async function startWebhookReceiver<T = { content: string; bke: Record<string, unknown> }>(): Promise<
  WebhookReceiver<T>
> {
  const received: T[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => server.close(),
  };
}
