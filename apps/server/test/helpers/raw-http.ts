/** One HTTP request written by hand on a TCP socket, for what no HTTP client would send. */
import { connect } from 'node:net';

export interface RawAnswer {
  /** 0 when nothing that looks like an HTTP answer came back. */
  status: number;
  /** The answer's body read as JSON (null when it is not). */
  body: unknown;
  text: string;
}

export function rawRequest(base: string, request: string, timeoutMs = 1500): Promise<RawAnswer> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const s = connect(Number(port), '127.0.0.1');
    let got = '';
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      s.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
      const text = got.slice(got.indexOf('\r\n\r\n') + 4);
      let body: unknown = null;
      try {
        body = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
      } catch {}
      resolve({ status, body, text: got });
    };
    s.on('data', (d) => {
      got += d.toString('latin1');
      // A whole answer (its Content-Length read) is enough: keep-alive would hold the line open.
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? -1);
      const at = got.indexOf('\r\n\r\n');
      if (length >= 0 && at >= 0 && Buffer.byteLength(got.slice(at + 4), 'latin1') >= length) done();
    });
    s.on('end', done);
    s.on('error', done);
    s.setTimeout(timeoutMs, done);
    s.write(request, 'latin1');
  });
}
