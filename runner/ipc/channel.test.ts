import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { ChannelError, FrameReader, WorkerMessageType, encodeFrame, exitCodeOf, resultOfExitCode, writeFrame } from './index.js';

test('a frame is type and length little-endian, then the body as UTF-16LE', () => {
  const frame = encodeFrame({ type: WorkerMessageType.NewJobRequest, body: '{"a":"é"}' });
  assert.equal(frame.readInt32LE(0), 1);
  assert.equal(frame.readInt32LE(4), 18);
  assert.equal(frame.subarray(8).toString('utf16le'), '{"a":"é"}');
  assert.deepEqual([...frame.subarray(8, 10)], [0x7b, 0x00]);
});

test('frames split across chunks and joined in one chunk are read in order', async () => {
  const stream = new PassThrough();
  const reader = new FrameReader(stream);
  const bytes = Buffer.concat([
    encodeFrame({ type: WorkerMessageType.NewJobRequest, body: 'x'.repeat(1000) }),
    encodeFrame({ type: WorkerMessageType.CancelRequest, body: '' }),
  ]);
  for (let i = 0; i < bytes.length; i += 7) stream.write(bytes.subarray(i, i + 7));
  stream.end();
  assert.deepEqual(await reader.next(), { type: 1, body: 'x'.repeat(1000) });
  assert.deepEqual(await reader.next(), { type: 2, body: '' });
  assert.equal(await reader.next(), undefined);
});

test('writeFrame resolves once written; an unknown type or a cut frame is a ChannelError', async () => {
  const stream = new PassThrough();
  const reader = new FrameReader(stream);
  await writeFrame(stream, { type: WorkerMessageType.RunnerShutdown, body: '' });
  assert.deepEqual(await reader.next(), { type: 3, body: '' });
  const bad = Buffer.alloc(8);
  bad.writeInt32LE(9, 0);
  stream.write(bad);
  await assert.rejects(reader.next(), ChannelError);

  const cut = new PassThrough();
  const cutReader = new FrameReader(cut);
  cut.end(encodeFrame({ type: 1, body: 'abc' }).subarray(0, 10));
  await assert.rejects(cutReader.next(), /ended inside a frame/);
});

test('exit codes are 100 + TaskResult; anything else is a crash', () => {
  assert.equal(exitCodeOf('succeeded'), 100);
  assert.equal(exitCodeOf('canceled'), 103);
  assert.equal(resultOfExitCode(102), 'failed');
  assert.equal(resultOfExitCode(1), undefined);
  assert.equal(resultOfExitCode(null), undefined);
});
