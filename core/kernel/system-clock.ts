import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../ports/index.js';

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: IdGenerator = {
  uuid: () => randomUUID(),
  token: (bytes = 32) => randomBytes(bytes).toString('base64url'),
};
