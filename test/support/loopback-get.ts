import { request } from 'node:http';

export interface Got {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/**
 * GET as curl does it: a `*.localhost` name (the server URL jobs see for a loopback server) goes
 * to loopback and the Host header keeps the name. Node's resolver does not know `*.localhost`
 * everywhere (plugins/runtime-services/README.md, "The host gate").
 */
export function getLikeCurl(url: string, headers: Readonly<Record<string, string>> = {}): Promise<Got> {
  const target = new URL(url);
  const host = target.hostname.endsWith('.localhost') ? '127.0.0.1' : target.hostname;
  return new Promise((resolve, reject) => {
    const req = request({ host, port: target.port, path: `${target.pathname}${target.search}`, headers: { host: target.host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
