/**
 * The listener ⇄ worker channel, framed as the official runner frames it (RUNNER-PROTOCOL.md
 * §6.2): a 4-byte little-endian message type, a 4-byte little-endian body length, then the body
 * as UTF-16LE text. svc-runner writes frames to the worker's stdin; the worker reads them.
 */
import { Buffer } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';

export const WorkerMessageType = {
  NewJobRequest: 1,
  CancelRequest: 2,
  RunnerShutdown: 3,
  OperatingSystemShutdown: 4,
} as const;
export type WorkerMessageTypeCode = (typeof WorkerMessageType)[keyof typeof WorkerMessageType];

export interface WorkerMessage {
  readonly type: WorkerMessageTypeCode;
  readonly body: string;
}

/** The runner's cap on one frame's body (bytes). */
export const MAX_FRAME_BODY_BYTES = 50_000_000;

const HEADER_BYTES = 8;

export class ChannelError extends Error {
  override readonly name = 'ChannelError';
}

function isTypeCode(value: number): value is WorkerMessageTypeCode {
  return value >= 1 && value <= 4;
}

export function encodeFrame(message: WorkerMessage): Buffer {
  const body = Buffer.from(message.body, 'utf16le');
  if (body.length > MAX_FRAME_BODY_BYTES) throw new ChannelError(`worker message body of ${body.length} bytes is over the ${MAX_FRAME_BODY_BYTES}-byte limit`);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeInt32LE(message.type, 0);
  header.writeInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** Writes one frame and resolves once the stream has taken it. */
export function writeFrame(stream: Writable, message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(encodeFrame(message), (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Reads frames from a stream, one at a time. `next()` resolves with the next frame, or
 * `undefined` once the stream has ended cleanly between frames.
 */
export class FrameReader {
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;
  #failure: Error | undefined;
  #waiters: Array<() => void> = [];

  constructor(stream: Readable) {
    stream.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#wake();
    });
    stream.on('end', () => {
      this.#ended = true;
      this.#wake();
    });
    stream.on('error', (error: Error) => {
      this.#failure = error;
      this.#wake();
    });
  }

  async next(): Promise<WorkerMessage | undefined> {
    for (;;) {
      const frame = this.#take();
      if (frame !== undefined) return frame;
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended) {
        if (this.#buffer.length > 0) throw new ChannelError(`the worker channel ended inside a frame (${this.#buffer.length} bytes left)`);
        return undefined;
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #take(): WorkerMessage | undefined {
    if (this.#buffer.length < HEADER_BYTES) return undefined;
    const type = this.#buffer.readInt32LE(0);
    const length = this.#buffer.readInt32LE(4);
    if (!isTypeCode(type)) throw new ChannelError(`unknown worker message type ${type}`);
    if (length < 0 || length > MAX_FRAME_BODY_BYTES || length % 2 !== 0) throw new ChannelError(`bad worker message length ${length}`);
    if (this.#buffer.length < HEADER_BYTES + length) return undefined;
    const body = this.#buffer.subarray(HEADER_BYTES, HEADER_BYTES + length).toString('utf16le');
    this.#buffer = this.#buffer.subarray(HEADER_BYTES + length);
    return { type, body };
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
