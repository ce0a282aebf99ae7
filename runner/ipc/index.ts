// runner/ipc: the listener ⇄ worker channel (framing, message types, exit codes).
export { ChannelError, FrameReader, MAX_FRAME_BODY_BYTES, WorkerMessageType, encodeFrame, writeFrame } from './channel.js';
export type { WorkerMessage, WorkerMessageTypeCode } from './channel.js';
export { TASK_RESULTS, exitCodeOf, resultOfExitCode } from './exit-codes.js';
export type { TaskResultName } from './exit-codes.js';
