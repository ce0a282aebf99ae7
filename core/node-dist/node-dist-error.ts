/** A Node.js release could not be had, or an archive not unpacked: the message says what to do. */
export class NodeDistError extends Error {
  override readonly name = 'NodeDistError';
}
