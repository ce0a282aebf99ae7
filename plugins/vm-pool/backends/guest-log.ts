import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** A guest's stdout and stderr: files in its root or state dir, never the server's pipes (the guest outlives a killed server). */
export const GUEST_LOG_FILES = { stdout: 'guest-stdout.log', stderr: 'guest-stderr.log' } as const;

export type GuestStream = keyof typeof GUEST_LOG_FILES;

const POLL_MS = 100;
const CHUNK = 64 * 1024;

export interface GuestLogs {
  /** File descriptors for a child's stdout and stderr (appending, mode 0600); close them after spawn. */
  open(): { readonly stdout: number; readonly stderr: number; close(): void };
  /** Forwards new lines of both files to `onOutput` as they are written, from `fromEnd` bytes before their current end (all when undefined). */
  follow(onOutput: (stream: GuestStream, line: string) => void, fromEnd?: number): { stop(): void };
  /** The last `bytes` of a stream's file ('' when there is none). */
  tail(stream: GuestStream, bytes: number): string;
}

export function guestLogs(dir: string): GuestLogs {
  const path = (stream: GuestStream) => join(dir, GUEST_LOG_FILES[stream]);
  return {
    open() {
      const stdout = openSync(path('stdout'), 'a', 0o600);
      const stderr = openSync(path('stderr'), 'a', 0o600);
      return { stdout, stderr, close: () => (closeSync(stdout), closeSync(stderr)) };
    },
    follow(onOutput, fromEnd) {
      const readers = (['stdout', 'stderr'] as const).map((stream) => lineReader(path(stream), fromEnd, (line) => onOutput(stream, line)));
      const timer = setInterval(() => readers.forEach((read) => read(false)), POLL_MS);
      timer.unref();
      return {
        stop() {
          clearInterval(timer);
          readers.forEach((read) => read(true));
        },
      };
    },
    tail(stream, bytes) {
      try {
        const size = statSync(path(stream)).size;
        const start = Math.max(0, size - bytes);
        const fd = openSync(path(stream), 'r');
        try {
          const buffer = Buffer.alloc(size - start);
          readSync(fd, buffer, 0, buffer.length, start);
          return buffer.toString('utf8');
        } finally {
          closeSync(fd);
        }
      } catch {
        return '';
      }
    },
  };
}

/** Reads what was appended to `file` since the last call and emits whole lines (the rest too when `final`). */
function lineReader(file: string, fromEnd: number | undefined, onLine: (line: string) => void): (final: boolean) => void {
  let position: number | undefined;
  let pending = '';
  const decoder = new StringDecoder('utf8');
  return (final) => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    position ??= fromEnd === undefined ? 0 : Math.max(0, size - fromEnd);
    if (size > position) {
      const fd = openSync(file, 'r');
      try {
        while (position < size) {
          const buffer = Buffer.alloc(Math.min(CHUNK, size - position));
          const read = readSync(fd, buffer, 0, buffer.length, position);
          if (read === 0) break;
          position += read;
          pending += decoder.write(buffer.subarray(0, read));
        }
      } finally {
        closeSync(fd);
      }
    }
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      onLine(pending.slice(0, newline).replace(/\r$/, ''));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
    if (final && pending !== '') {
      onLine(pending);
      pending = '';
    }
  };
}
