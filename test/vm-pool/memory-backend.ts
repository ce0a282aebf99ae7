/**
 * An in-memory IsolationBackend and RunnerProvisioning (our own interfaces): guests are records
 * the test drives (connect, take a job, exit), registrations a map. The pool manager cannot tell
 * them from real ones, so its logic (warm, max, replacement, back-off, stop) is tested alone.
 */
import { existsSync } from 'node:fs';
import type { ProvisionedRunnerState, RunnerProvisioning } from '../../core/ports/index.js';
import type { BackendProbe, Guest, GuestExit, GuestLaunch, IsolationBackend } from '../../plugins/vm-pool/index.js';

export interface MemoryGuest {
  readonly spec: GuestLaunch;
  readonly runnerId: number;
  /** The grace the pool stopped it with, once it did. */
  stoppedWith: number | undefined;
  /** Ends the guest as if its runner exited. */
  exit(code: number | null, signal?: string | null): void;
  readonly exited: Promise<GuestExit>;
}

export class MemoryPool implements RunnerProvisioning {
  readonly registrations = new Map<number, { name: string; labels: readonly string[]; state: ProvisionedRunnerState }>();
  readonly guests: MemoryGuest[] = [];
  /** Removed registration ids, in order. */
  readonly removed: number[] = [];
  /** Every launch fails with this, while set. */
  launchError: string | undefined;
  /** Guests exit with code 1 right after launch, while set (a crash loop). */
  crashOnLaunch = false;
  #nextId = 1;

  async provision(request: { name: string; labels: readonly string[] }) {
    const runnerId = this.#nextId++;
    this.registrations.set(runnerId, { name: request.name, labels: request.labels, state: { status: 'offline', tookJob: false } });
    return { encodedJitConfig: `jit-${runnerId}`, runnerId };
  }

  async runnerState(runnerId: number) {
    return this.registrations.get(runnerId)?.state;
  }

  async remove(runnerId: number) {
    this.removed.push(runnerId);
    return this.registrations.delete(runnerId);
  }

  async removeNamed(namePrefix: string, keep: readonly number[] = []) {
    const named = [...this.registrations].filter(([runnerId, registration]) => registration.name.startsWith(namePrefix) && !keep.includes(runnerId));
    for (const [runnerId] of named) await this.remove(runnerId);
    return named.length;
  }

  /** The runner of a guest opened its session. */
  connect(guest: MemoryGuest): void {
    this.#set(guest, { status: 'online', tookJob: false });
  }

  /** A job was handed to the guest's runner. */
  takeJob(guest: MemoryGuest): void {
    this.#set(guest, { status: 'busy', tookJob: true });
  }

  #set(guest: MemoryGuest, state: ProvisionedRunnerState): void {
    const registration = this.registrations.get(guest.runnerId);
    if (registration === undefined) throw new Error(`runner ${guest.runnerId} is not registered`);
    registration.state = state;
  }

  live(): MemoryGuest[] {
    return this.guests.filter((guest) => !this.#ended.has(guest));
  }

  readonly #ended = new Set<MemoryGuest>();

  backend(): IsolationBackend {
    return {
      kind: 'process',
      probe: async (): Promise<BackendProbe> => ({ ok: true, reason: 'in memory' }),
      launch: async (spec): Promise<Guest> => {
        if (this.launchError !== undefined) throw new Error(this.launchError);
        if (!existsSync(spec.runnerRoot)) throw new Error(`the pool did not create ${spec.runnerRoot}`);
        const runnerId = Number(/^jit-(\d+)$/.exec(spec.env['ACTIONS_RUNNER_INPUT_JITCONFIG'] ?? '')?.[1]);
        let resolve!: (exit: GuestExit) => void;
        const exited = new Promise<GuestExit>((r) => (resolve = r));
        const guest: MemoryGuest = {
          spec,
          runnerId,
          stoppedWith: undefined,
          exited,
          exit: (code, signal = null) => {
            if (this.#ended.has(guest)) return;
            this.#ended.add(guest);
            resolve({ code, signal });
          },
        };
        this.guests.push(guest);
        if (this.crashOnLaunch) setImmediate(() => guest.exit(1));
        return {
          guestId: spec.guestId,
          pid: undefined,
          exited,
          stop: async (graceMs) => {
            guest.stoppedWith = graceMs;
            guest.exit(null, 'SIGTERM');
            return exited;
          },
        };
      },
    };
  }
}
