import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Logger } from '../../../core/kernel/index.js';
import type { RunnerProvisioning } from '../../../core/ports/index.js';
import type { Guest, GuestExit, GuestLimits, IsolationBackend } from '../backends/index.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';
import { guestEnvironment, prepareGuestRoot, removeGuestRoot } from './guest-root.js';
import { writeGuestRecord, type GuestRecord } from './guest-records.js';
import type { RuntimeState } from '../runtimes/index.js';
import type { GuestPhase, PoolStatus } from './pool-status.js';
import type { RunnerCommand } from './runner-command.js';

export interface PoolManagerOptions {
  readonly backend: IsolationBackend;
  readonly provisioning: RunnerProvisioning;
  readonly logger: Logger;
  /** `<data dir>/pool`: each guest's runner root is `<rootDir>/<guestId>`. */
  readonly rootDir: string;
  /** Guest ids (and runner names) are this followed by 8 hex digits (default `svc-pool-`). */
  readonly guestPrefix?: string;
  readonly warm: number;
  readonly max: number;
  readonly labels: readonly string[];
  readonly stopGraceMs: number;
  readonly runner: Pick<RunnerCommand, 'command' | 'args'>;
  /** The address guests reach the control plane at (SVC_PUBLIC_URL or the listener). */
  readonly serverUrl: () => string;
  readonly runnerSocket: string | undefined;
  readonly network?: boolean;
  readonly limits?: GuestLimits;
  /** Resolves when guests can connect; the pool launches nothing before. Default: at once. */
  readonly serverReady?: (signal: AbortSignal) => Promise<void>;
  /** How often idle guests are checked for a job (default 500 ms). */
  readonly pollMs?: number;
  readonly backoff?: BackoffSettings;
  readonly now?: () => number;
  readonly environment?: (root: string) => Record<string, string>;
  /** The JavaScript runtimes guests get in `externals/`, as they stand at each launch. */
  readonly runtimes?: () => readonly RuntimeState[];
  /**
   * Resolves once the runtimes are provisioned or the pool stops waiting for them; the pool
   * launches nothing before (default: at once).
   */
  readonly runtimesReady?: (signal: AbortSignal) => Promise<void>;
  /** The tool cache every guest shares (writable, RUNNER_TOOL_CACHE); undefined: none. */
  readonly toolCache?: string;
  /**
   * Guests a previous server of this data directory left running (`recordedGuests`): taken over
   * at start (their jobs go on), or cleaned up when they are gone.
   */
  readonly adopt?: readonly GuestRecord[];
}

export interface PoolManager {
  start(): void;
  /** Stops launching and stops every guest (the runner's wind-down, then the grace). */
  stop(): Promise<void>;
  status(): PoolStatus;
  /** Resolves once `predicate` holds for the status (checked at every change). */
  until(predicate: (status: PoolStatus) => boolean, signal?: AbortSignal): Promise<PoolStatus>;
}

interface Slot {
  readonly guestId: string;
  readonly root: string;
  readonly launchedAt: number;
  phase: GuestPhase;
  runnerId: number | undefined;
  guest: Guest | undefined;
  tookJob: boolean;
  /** The last lines the guest wrote, for the failure message. */
  readonly tail: string[];
  settled: Promise<void>;
}

const TAIL_LINES = 5;

/** Where a guest's runner finds its just-in-time configuration (svc-runner and the official runner). */
export const JIT_CONFIG_VARIABLE = 'ACTIONS_RUNNER_INPUT_JITCONFIG';

/**
 * The built-in pool: keeps `warm` guests ready, at most `max` in all; each guest is one
 * ephemeral runner for one job. A guest handed a job is replaced at once; an exited guest's root
 * and registration are removed. Guests failing one after the other back off exponentially.
 */
export function createPoolManager(options: PoolManagerOptions): PoolManager {
  const { backend, provisioning, logger } = options;
  const now = options.now ?? Date.now;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const environment = options.environment ?? ((root: string) => guestEnvironment(root, options.toolCache));
  const runtimes = options.runtimes ?? (() => []);
  const slots = new Map<string, Slot>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const abort = new AbortController();
  let state: 'created' | 'running' | 'stopping' | 'stopped' = 'created';
  let ready: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let polling = false;
  const totals = { launched: 0, exited: 0, jobsTaken: 0 };
  let failures = 0;
  let lastFailure: string | undefined;
  let retryAt: number | undefined;

  const changed = () => events.emit('change');
  const spare = () => [...slots.values()].filter((slot) => slot.phase === 'starting' || slot.phase === 'idle').length;

  function status(): PoolStatus {
    return {
      backend: backend.kind,
      state: state === 'created' || state === 'running' ? (retryAt !== undefined && retryAt > now() ? 'backing-off' : 'running') : state,
      warm: options.warm,
      max: options.max,
      labels: options.labels,
      guests: [...slots.values()].map((slot) => ({ guestId: slot.guestId, runnerId: slot.runnerId, phase: slot.phase, pid: slot.guest?.pid, launchedAt: slot.launchedAt })),
      ...totals,
      consecutiveFailures: failures,
      lastFailure,
      retryAt,
    };
  }

  function fail(slot: Slot, reason: string): void {
    failures += 1;
    const tail = slot.tail.length > 0 ? ` (last output: ${slot.tail.join(' | ')})` : '';
    lastFailure = `guest ${slot.guestId} ${reason}${tail}`;
    const delay = backoffDelay(failures, backoff);
    retryAt = now() + delay;
    logger.warn({ guestId: slot.guestId, failures, retryInMs: delay }, `built-in pool: ${lastFailure}; next launch in ${Math.round(delay / 1000)} s`);
  }

  function succeeded(): void {
    if (failures > 0) logger.info({ failures }, 'built-in pool: guests start again');
    failures = 0;
    lastFailure = undefined;
    retryAt = undefined;
  }

  function reconcile(): void {
    if (state !== 'running') return;
    let wanted = Math.min(options.warm - spare(), options.max - slots.size);
    if (wanted <= 0) return;
    if (failures > 0) {
      // Backing off: one guest at a time, once the wait is over.
      if ([...slots.values()].some((slot) => slot.phase === 'starting')) return;
      const wait = (retryAt ?? 0) - now();
      if (wait > 0) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(reconcile, wait);
        return;
      }
      wanted = 1;
    }
    for (let i = 0; i < wanted; i += 1) launch();
  }

  function launch(): void {
    const guestId = `${options.guestPrefix ?? 'svc-pool-'}${randomBytes(4).toString('hex')}`;
    const slot: Slot = { guestId, root: join(options.rootDir, guestId), launchedAt: now(), phase: 'starting', runnerId: undefined, guest: undefined, tookJob: false, tail: [], settled: Promise.resolve() };
    slots.set(guestId, slot);
    totals.launched += 1;
    slot.settled = run(slot).catch((error: unknown) => logger.error({ err: error, guestId }, 'built-in pool: guest bookkeeping failed'));
    changed();
  }

  async function run(slot: Slot): Promise<void> {
    let exit: GuestExit | undefined;
    try {
      ready ??= Promise.all([(options.serverReady ?? (async () => undefined))(abort.signal), (options.runtimesReady ?? (async () => undefined))(abort.signal)]).then(() => undefined);
      await ready;
      const { encodedJitConfig, runnerId } = await provisioning.provision({ name: slot.guestId, labels: options.labels });
      slot.runnerId = runnerId;
      const guestRuntimes = runtimes();
      await prepareGuestRoot(slot.root, guestRuntimes);
      if (state !== 'running') return;
      slot.guest = await backend.launch({
        guestId: slot.guestId,
        command: options.runner.command,
        // The JIT config holds the runner's private key: in the environment (readable by its own
        // user only), never on a command line any local user can read from ps. The official
        // runner reads ACTIONS_RUNNER_INPUT_<OPTION> as that option too (as ARC starts it).
        args: [...options.runner.args, 'run', '--once', '--runner-root', slot.root],
        env: { ...environment(slot.root), [JIT_CONFIG_VARIABLE]: encodedJitConfig },
        runnerRoot: slot.root,
        mounts: [
          ...guestRuntimes.flatMap((runtime) => (runtime.state === 'ready' && runtime.source === 'provisioned' ? [{ path: runtime.dir, writable: false }] : [])),
          ...(options.toolCache === undefined ? [] : [{ path: options.toolCache, writable: true }]),
        ],
        serverUrl: options.serverUrl(),
        runnerSocket: options.runnerSocket,
        network: options.network ?? true,
        limits: options.limits ?? {},
        onOutput: (stream, line) => {
          slot.tail.push(line);
          if (slot.tail.length > TAIL_LINES) slot.tail.shift();
          logger.debug({ guestId: slot.guestId, stream }, line);
        },
      });
      if (slot.guest.handle !== undefined) {
        // Guests outlive a killed server: the next one adopts them from this record.
        await writeGuestRecord({ guestId: slot.guestId, root: slot.root, backend: backend.kind, runnerId, handle: slot.guest.handle });
      }
      logger.info({ guestId: slot.guestId, runnerId, pid: slot.guest.pid, backend: backend.kind }, 'built-in pool: guest launched');
      changed();
      // Stop asked while it was launching: stop it now.
      exit = await (state === 'running' ? slot.guest.exited : stopGuest(slot));
    } catch (error) {
      if (state === 'running') fail(slot, `could not be launched: ${(error as Error).message}`);
    } finally {
      await finish(slot, exit);
    }
  }

  /** Takes over a guest a previous server launched; a guest that is gone is cleaned up (registration, root). */
  function adopt(record: GuestRecord): void {
    const slot: Slot = { guestId: record.guestId, root: record.root, launchedAt: now(), phase: 'starting', runnerId: record.runnerId, guest: undefined, tookJob: false, tail: [], settled: Promise.resolve() };
    slots.set(slot.guestId, slot);
    const onOutput = (stream: 'stdout' | 'stderr', line: string) => {
      slot.tail.push(line);
      if (slot.tail.length > TAIL_LINES) slot.tail.shift();
      logger.debug({ guestId: slot.guestId, stream }, line);
    };
    slot.settled = (async () => {
      let exit: GuestExit | undefined;
      try {
        slot.guest = await backend.adopt?.({ guestId: record.guestId, runnerRoot: record.root, handle: record.handle, runnerSocket: options.runnerSocket, onOutput });
        if (slot.guest === undefined) {
          logger.info({ guestId: slot.guestId, runnerId: slot.runnerId }, 'built-in pool: a guest a previous server left is gone; removing its root and registration');
          return;
        }
        logger.info({ guestId: slot.guestId, runnerId: slot.runnerId, pid: slot.guest.pid, backend: backend.kind }, 'built-in pool: adopted a guest a previous server left running');
        changed();
        exit = await (state === 'running' ? slot.guest.exited : stopGuest(slot));
      } catch (error) {
        logger.warn({ err: error, guestId: slot.guestId }, 'built-in pool: could not adopt a guest a previous server left');
      } finally {
        await finish(slot, exit);
      }
    })().catch((error: unknown) => logger.error({ err: error, guestId: slot.guestId }, 'built-in pool: guest bookkeeping failed'));
    changed();
  }

  async function finish(slot: Slot, exit: GuestExit | undefined): Promise<void> {
    if (slot.runnerId !== undefined) {
      // A short job can come and go between two polls: the registration still tells.
      if (!slot.tookJob && (await provisioning.runnerState(slot.runnerId).catch(() => undefined))?.tookJob === true) {
        slot.tookJob = true;
        totals.jobsTaken += 1;
      }
      // An ephemeral runner's registration ends with its guest, whether or not it took a job.
      await provisioning.remove(slot.runnerId).catch((error: unknown) => logger.warn({ err: error, runnerId: slot.runnerId }, 'built-in pool: removing a guest registration failed'));
    }
    await removeGuestRoot(slot.root).catch((error: unknown) => logger.warn({ err: error, root: slot.root }, 'built-in pool: removing a guest root failed'));
    slots.delete(slot.guestId);
    if (exit !== undefined) {
      totals.exited += 1;
      const lifetimeMs = now() - slot.launchedAt;
      logger.info({ guestId: slot.guestId, runnerId: slot.runnerId, code: exit.code, signal: exit.signal, tookJob: slot.tookJob, lifetimeMs }, 'built-in pool: guest exited');
      if (slot.tookJob) succeeded();
      else if (state === 'running' && slot.phase !== 'stopping') fail(slot, `exited (code ${exit.code}, signal ${exit.signal}) before taking a job`);
    }
    changed();
    reconcile();
  }

  function stopGuest(slot: Slot): Promise<GuestExit> {
    slot.phase = 'stopping';
    changed();
    if (slot.guest === undefined) return Promise.resolve({ code: null, signal: null });
    return slot.guest.stop(options.stopGraceMs);
  }

  /** Notes which guests connected (healthy) and which were handed a job (replaced at once). */
  async function poll(): Promise<void> {
    if (polling || state !== 'running') return;
    polling = true;
    try {
      for (const slot of slots.values()) {
        if ((slot.phase !== 'starting' && slot.phase !== 'idle') || slot.runnerId === undefined || slot.guest === undefined) continue;
        const runner = await provisioning.runnerState(slot.runnerId).catch(() => undefined);
        if (runner === undefined || state !== 'running' || (slot.phase !== 'starting' && slot.phase !== 'idle')) continue;
        if (runner.tookJob) {
          slot.phase = 'busy';
          slot.tookJob = true;
          totals.jobsTaken += 1;
          succeeded();
          logger.info({ guestId: slot.guestId, runnerId: slot.runnerId }, 'built-in pool: guest started a job; launching a replacement');
        } else if (slot.phase === 'starting' && runner.status === 'online') {
          slot.phase = 'idle';
          succeeded();
          logger.info({ guestId: slot.guestId, runnerId: slot.runnerId }, 'built-in pool: guest is waiting for a job');
        } else continue;
        changed();
      }
      reconcile();
    } finally {
      polling = false;
    }
  }

  return {
    start() {
      if (state !== 'created') return;
      state = 'running';
      for (const record of options.adopt ?? []) adopt(record);
      pollTimer = setInterval(() => void poll(), options.pollMs ?? 500);
      reconcile();
    },
    async stop() {
      if (state === 'created' || state === 'running') {
        state = 'stopping';
        abort.abort();
        clearInterval(pollTimer);
        clearTimeout(retryTimer);
        changed();
        logger.info({ guests: slots.size, graceMs: options.stopGraceMs }, 'built-in pool: stopping guests');
        for (const slot of slots.values()) if (slot.guest !== undefined) void stopGuest(slot);
      }
      while (slots.size > 0) await Promise.all([...slots.values()].map((slot) => slot.settled));
      if (state !== 'stopped') {
        state = 'stopped';
        changed();
      }
    },
    status,
    until(predicate, signal) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const current = status();
          if (!predicate(current)) return;
          events.off('change', check);
          resolve(current);
        };
        signal?.addEventListener('abort', () => (events.off('change', check), reject(signal.reason)), { once: true });
        events.on('change', check);
        check();
      });
    },
  };
}
