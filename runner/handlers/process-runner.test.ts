import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { ProcessStartError, readLines, runProcess, terminateOrphanProcesses } from './process-runner.js';

const env = { PATH: process.env['PATH'] ?? '' };

/** Running (a zombie waiting for a reaper that may never come in a container is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('running a step process', () => {
  it('reads stdout and stderr line by line, CRLF and a last line without newline included', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const result = await runProcess({
      command: 'bash',
      args: ['-c', 'printf "a\\r\\nb\\n"; printf "oops\\n" >&2; printf "tail"; exit 4'],
      cwd: process.cwd(),
      env,
      signal: new AbortController().signal,
      onStdout: (line) => out.push(line),
      onStderr: (line) => err.push(line),
    });
    assert.deepEqual(out, ['a', 'b', 'tail']);
    assert.deepEqual(err, ['oops']);
    assert.deepEqual([result.exitCode, result.aborted], [4, false]);
  });

  it('on abort sends SIGINT, then SIGTERM, then SIGKILL to the whole group', async () => {
    const abort = new AbortController();
    const out: string[] = [];
    // The shell ignores SIGINT and SIGTERM; its background child is in the same group.
    const running = runProcess({
      command: 'bash',
      args: ['-c', 'trap "" INT TERM; sleep 60 & echo "child $!"; while true; do sleep 0.1; done'],
      cwd: process.cwd(),
      env,
      signal: abort.signal,
      onStdout: (line) => out.push(line),
      onStderr: () => undefined,
      killTimings: { sigtermAfterMs: 200, sigkillAfterMs: 200 },
    });
    while (out.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const child = Number(out[0]?.split(' ')[1]);
    const started = Date.now();
    abort.abort();
    const result = await running;
    assert.equal(result.aborted, true);
    assert.equal(result.signal, 'SIGKILL', 'only SIGKILL ended a shell that ignores INT and TERM');
    assert.ok(Date.now() - started >= 380, 'it waited through both grace periods');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(alive(child), false, 'the background child went with its group');
  });

  it('a missing working directory is a start error naming it', async () => {
    await assert.rejects(
      runProcess({ command: 'bash', args: ['-c', 'true'], cwd: '/no/such/dir', env, signal: new AbortController().signal, onStdout: () => undefined, onStderr: () => undefined }),
      (error: unknown) => error instanceof ProcessStartError && /working directory '\/no\/such\/dir'/.test(error.message),
    );
  });

  it('ends what steps left running in their groups', async () => {
    const out: string[] = [];
    await runProcess({
      command: 'bash',
      args: ['-c', 'sleep 60 >/dev/null 2>&1 & echo $!'],
      cwd: process.cwd(),
      env,
      signal: new AbortController().signal,
      onStdout: (line) => out.push(line),
      onStderr: () => undefined,
    });
    const orphan = Number(out[0]);
    assert.equal(alive(orphan), true);
    assert.ok(terminateOrphanProcesses().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(alive(orphan), false);
  });

  it('ends when the shell exits although a background process holds its output open; the process lives on until the orphan clean-up', { timeout: 60_000 }, async () => {
    const out: string[] = [];
    const result = await runProcess({
      command: 'bash',
      args: ['-c', 'sleep 600 & echo "started $!"; exit 0'],
      cwd: process.cwd(),
      env,
      signal: new AbortController().signal,
      onStdout: (line) => out.push(line),
      onStderr: () => undefined,
      outputDrainMs: 200,
    });
    assert.deepEqual([result.exitCode, result.aborted], [0, false]);
    assert.equal(out.length, 1, 'what the shell printed before it exited is kept');
    const background = Number(out[0]?.split(' ')[1]);
    assert.equal(alive(background), true, 'the step does not kill what it started');
    assert.ok(terminateOrphanProcesses().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(alive(background), false);
  });

  it('keeps the exit code of the shell, and drops what a background process prints after the step ended', { timeout: 60_000 }, async () => {
    const out: string[] = [];
    const result = await runProcess({
      command: 'bash',
      args: ['-c', '(while true; do echo tick; sleep 0.02; done) & echo "main done"; exit 3'],
      cwd: process.cwd(),
      env,
      signal: new AbortController().signal,
      onStdout: (line) => out.push(line),
      onStderr: () => undefined,
      outputDrainMs: 100,
    });
    assert.equal(result.exitCode, 3);
    assert.ok(out.includes('main done'), out.join('\n'));
    const seen = out.length;
    // The ticking goes on (it is read and dropped, so it never blocks on a full pipe), but nothing reaches the step any more.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(out.length, seen);
    assert.ok(terminateOrphanProcesses().length >= 1);
  });

  it('decodes UTF-8 split across chunks', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    readLines(stream, (line) => lines.push(line));
    const bytes = Buffer.from('héllo\nwörld', 'utf8');
    stream.write(bytes.subarray(0, 2));
    stream.write(bytes.subarray(2, 9));
    stream.end(bytes.subarray(9));
    await new Promise((resolve) => stream.on('end', resolve));
    assert.deepEqual(lines, ['héllo', 'wörld']);
  });
});
