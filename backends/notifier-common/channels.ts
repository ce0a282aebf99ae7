import { InputError } from '../../core/kernel/index.js';

/** The channel rule every notifier applies, so a name that works on one works on all. */
const CHANNEL = /^[A-Za-z0-9_.:-]{1,63}$/;

export function assertChannel(channel: string): string {
  if (!CHANNEL.test(channel)) {
    throw new InputError(`notifier channel ${JSON.stringify(channel)} must be 1-63 characters of A-Z a-z 0-9 _ . : -`, { code: 'invalid_channel' });
  }
  return channel;
}
