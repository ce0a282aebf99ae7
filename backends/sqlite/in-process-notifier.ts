import { EventEmitter } from 'node:events';
import {
  UnavailableError,
  type BackendContext,
  type Logger,
  type NotifierBackend,
} from '../../core/kernel/index.js';
import type { Notifier, NotifyListener } from '../../core/ports/index.js';
import { assertChannel } from '../notifier-common/index.js';


/**
 * Wake-ups inside one process, for the embedded store (one node by definition). The emitter
 * picks the listeners subscribed when `notify` is called; each is then called on a later turn,
 * like on the networked notifiers, so callers cannot come to rely on a listener having run when
 * `notify` returns (and a listener unsubscribed meanwhile is not called).
 */
export function createInProcessNotifier(logger?: Logger): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let closed = false;

  const assertOpen = (): void => {
    if (closed) throw new UnavailableError('the in-process notifier is closed', { code: 'notifier_closed' });
  };

  return {
    kind: 'in-process',
    async notify(channel, payload = '') {
      assertChannel(channel);
      assertOpen();
      emitter.emit(channel, payload);
    },
    async subscribe(channel, listener) {
      assertChannel(channel);
      assertOpen();
      let subscribed = true;
      const safe = (payload: string): void => {
        setImmediate(() => {
          if (subscribed && !closed) deliver(listener, payload, channel, logger);
        });
      };
      emitter.on(channel, safe);
      return async () => {
        if (!subscribed) return;
        subscribed = false;
        emitter.off(channel, safe);
      };
    },
    async close() {
      closed = true;
      emitter.removeAllListeners();
    },
  };
}

function deliver(listener: NotifyListener, payload: string, channel: string, logger: Logger | undefined): void {
  try {
    listener(payload);
  } catch (error) {
    logger?.error({ err: error, channel }, 'notification listener threw');
  }
}


export const inProcessNotifier: NotifierBackend = {
  kind: 'notifier',
  id: 'in-process',
  create: async (context: BackendContext) => createInProcessNotifier(context.logger),
};
