import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { followFeed } from './event-feed.js';

describe('followFeed over a dropped connection', () => {
  it('reconnects after a cut, leaves out what the snapshot repeats, and ends at the terminal status', async () => {
    const accepted = '{"type":"run_accepted","run_id":1,"queued_jobs":1}';
    const started = '{"type":"run_status","run_id":1,"status":"in_progress"}';
    const log = '{"type":"log","run_id":1,"job_id":1,"line":"hello"}';
    const done = '{"type":"run_status","run_id":1,"status":"success"}';
    let openings = 0;
    const server = createServer((_request, response) => {
      openings += 1;
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // The first feed is cut mid-line, the way a restarting server drops it.
      if (openings === 1) response.write(`${accepted}\n${started}\n${log}\n{"type":"ru`, () => response.socket?.destroy());
      else response.end(`${accepted}\n${started}\n${done}\n`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const connection = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 't' };
      const reconnects: string[] = [];
      const lines: string[] = [];
      const feed = followFeed(connection, 1, {
        signal: new AbortController().signal,
        onReconnect: (_attempt, why) => reconnects.push(why),
        pause: async () => undefined,
      });
      for await (const { raw } of feed) lines.push(raw);
      assert.deepEqual(lines, [accepted, started, log, done]);
      assert.deepEqual(reconnects, ['ECONNRESET']);
    } finally {
      server.close();
    }
  });
});
