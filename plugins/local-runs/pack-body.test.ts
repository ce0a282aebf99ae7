import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { InputError } from '../../core/kernel/index.js';
import { readHeaderLine } from './pack-body.js';

async function rest(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('latin1');
}

describe('readHeaderLine', () => {
  it('splits the first line from the rest, whatever the chunks', async () => {
    for (const chunks of [['{"a":1}\nPACKxyz'], ['{"a"', ':1}', '\nPA', 'CKxyz'], ['{"a":1}\n', 'PACKxyz'], ['{"a":1}\n']]) {
      const { line, rest: after } = await readHeaderLine(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), 1024);
      assert.equal(line.toString(), '{"a":1}');
      assert.equal(await rest(after), chunks.join('').slice('{"a":1}\n'.length), JSON.stringify(chunks));
    }
  });

  it('refuses a line past the limit before it ends, and a body that ends first', async () => {
    const endless = new PassThrough();
    endless.write(Buffer.alloc(600, 'x'));
    endless.write(Buffer.alloc(600, 'x'));
    await assert.rejects(readHeaderLine(endless, 1000), (error: unknown) => error instanceof InputError && /longer than 1000 bytes/.test(error.message));
    await assert.rejects(readHeaderLine(Readable.from([Buffer.from('{"no newline":true}')]), 1000), /ended before its header line did/);
  });

  it('passes the stream error on (an upload over its limit)', async () => {
    const failing = new PassThrough();
    const reading = readHeaderLine(failing, 1000);
    failing.destroy(new Error('too large'));
    await assert.rejects(reading, /too large/);
  });
});
