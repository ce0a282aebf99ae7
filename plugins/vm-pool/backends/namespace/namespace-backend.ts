import { join, resolve } from 'node:path';
import { UnavailableError } from '../../../../core/kernel/index.js';
import { createGuestStateDir } from '../guest-state-dir.js';
import type { BackendProbe, Guest, GuestLaunch, IsolationBackend } from '../isolation-backend.js';
import { adoptNamespaceGuest, runGuest } from './guest-process.js';
import { planGuest } from './guest-plan.js';
import { linkGuestSocket } from './guest-socket.js';
import { findTool, forwarderNode, missingTools } from './host-tools.js';
import { initScript } from './init-script.js';
import { probeNamespaceSupport, SLIRP_MISSING } from './probe.js';

/** The part of a pino logger the backend uses. */
export interface NamespaceLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  debug(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface NamespaceBackendOptions {
  readonly logger: NamespaceLogger;
  /** svc's data dir; guests' host-side state goes under `namespace-guests/` and it is hidden from them. */
  readonly dataDir: string;
  /** Path of the slirp4netns binary (default: found on the PATH). */
  readonly slirp4netns?: string;
}

export function createNamespaceBackend(options: NamespaceBackendOptions): IsolationBackend {
  const dataDir = resolve(options.dataDir);
  const guestsDir = join(dataDir, 'namespace-guests');
  return {
    kind: 'namespace',
    probe: (): Promise<BackendProbe> => probeNamespaceSupport(options.slirp4netns),
    async launch(spec: GuestLaunch): Promise<Guest> {
      const missing = missingTools();
      if (missing.length > 0) throw new UnavailableError(`namespace guests need ${missing.join(', ')} on the PATH (Debian packages util-linux and iproute2)`);
      const slirp4netns = findTool('slirp4netns', options.slirp4netns);
      if (spec.network && slirp4netns === undefined) {
        throw new UnavailableError(SLIRP_MISSING);
      }
      const stateDir = join(guestsDir, spec.guestId);
      const node = forwarderNode();
      const planned = planGuest(spec, { dataDir, stateDir, forwarderNode: node });
      createGuestStateDir(stateDir, 'namespace');
      const socketDir = spec.runnerSocket === undefined ? undefined : linkGuestSocket(stateDir, spec.runnerSocket);
      const plan = planned.forward === undefined || socketDir === undefined ? planned : { ...planned, forward: { ...planned.forward, socketDir } };
      const setpriv = findTool('setpriv') ?? 'setpriv';
      const script = initScript(plan, { setpriv, node });
      const guest = await runGuest(spec, stateDir, script, { unshare: findTool('unshare') ?? 'unshare', setpriv, sh: findTool('sh') ?? 'sh', slirp4netns });
      options.logger.debug({ guestId: spec.guestId, pid: guest.pid, readOnly: plan.readOnlyBinds, network: spec.network }, 'namespace guest started');
      void guest.exited.then((exit) => options.logger.debug({ guestId: spec.guestId, ...exit }, 'namespace guest exited'));
      return guest;
    },
    async adopt({ guestId, handle, runnerSocket, onOutput }) {
      return adoptNamespaceGuest(guestId, join(guestsDir, guestId), handle, runnerSocket, onOutput);
    },
  };
}
