/**
 * The one interface every isolation backend of the built-in pool implements (docs/ARCHITECTURE.md,
 * "Isolation"). A guest runs exactly one ephemeral `svc-runner` (JIT config, `--once`) for one
 * job and is destroyed after it; the pool decides when to launch and stop guests, the backend
 * only how.
 */

export type IsolationKind = 'process' | 'namespace' | 'microvm';

/** Whether a backend can run guests on this host, and if not, why (shown in logs and /readyz). */
export interface BackendProbe {
  readonly ok: boolean;
  /** One sentence a user can act on; for `ok: true`, what the backend will do (e.g. "no isolation"). */
  readonly reason: string;
  /** Set when guests could run but could not have outbound network: why, and what to install. */
  readonly noOutboundNetwork?: string;
}

export interface GuestLaunch {
  /** Unique per guest, `[a-z0-9-]`, at most 40 characters (used in names and paths). */
  readonly guestId: string;
  /** Absolute path of the program to run (a Node.js binary). */
  readonly command: string;
  /** Its arguments: the svc-runner entry and `run --once --runner-root <root>` (the JIT config is in `env`). */
  readonly args: readonly string[];
  /**
   * The whole environment of the runner process (nothing is inherited beyond it), including its
   * JIT config (ACTIONS_RUNNER_INPUT_JITCONFIG): never put it on a command line.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Host directory, created empty by the pool, that is the runner root (`_work/` goes under it).
   * Backends that give the guest its own file system mount it at the same path inside the guest,
   * so the paths in `args` stay valid. The pool deletes it after the guest exits.
   */
  readonly runnerRoot: string;
  /**
   * Host directories the guest sees at the same path besides its runner root: the pool's
   * JavaScript runtimes (read-only) and the shared tool cache (writable). Each exists.
   */
  readonly mounts: readonly GuestMount[];
  /** `SVC_PUBLIC_URL` of the control plane: the address the runner and the job use for it. */
  readonly serverUrl: string;
  /**
   * The control plane's runner socket (mode 0600, runner surface only). Backends whose guest has
   * no route to the host network (namespace, microvm) reach the control plane only through it,
   * making `serverUrl`'s host and port answer inside the guest by forwarding to this socket.
   */
  readonly runnerSocket: string | undefined;
  /** Outbound network for the job (namespace: slirp4netns). */
  readonly network: boolean;
  /** Resource limits, applied where the host allows (absent = none). */
  readonly limits: GuestLimits;
  /** Every line the guest writes on stdout/stderr (the pool logs them at debug level). */
  readonly onOutput: (stream: 'stdout' | 'stderr', line: string) => void;
}

export interface GuestMount {
  /** Absolute host path, mounted at the same path inside the guest. */
  readonly path: string;
  readonly writable: boolean;
}

export interface GuestLimits {
  readonly memoryBytes?: number;
  readonly pids?: number;
}

export interface GuestExit {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface Guest {
  readonly guestId: string;
  /** Host pid of the guest's outermost process. */
  readonly pid: number | undefined;
  /**
   * What a later server of the same data directory needs to find this guest again
   * (`IsolationBackend.adopt`), JSON-serialisable; absent: the guest cannot outlive its server.
   */
  readonly handle?: unknown;
  /** Settles once the guest and everything it started are gone. */
  readonly exited: Promise<GuestExit>;
  /**
   * Stops the guest: SIGTERM to the runner (it winds its job down), SIGKILL to everything left
   * after `graceMs`; resolves when nothing of the guest runs and its host-side state is gone.
   */
  stop(graceMs: number): Promise<GuestExit>;
}

export interface IsolationBackend {
  readonly kind: IsolationKind;
  probe(): Promise<BackendProbe>;
  launch(spec: GuestLaunch): Promise<Guest>;
  /**
   * A guest a previous server of this data directory launched (killed or restarted while the
   * guest ran), from the `handle` it recorded: the guest, or undefined when it is gone (whatever
   * it left on the host is removed then). Backends whose guests die with their server have none.
   */
  adopt?(guest: GuestAdoption): Promise<Guest | undefined>;
}

export interface GuestAdoption {
  readonly guestId: string;
  readonly runnerRoot: string;
  readonly handle: unknown;
  /** This server's runner socket (GuestLaunch.runnerSocket). */
  readonly runnerSocket: string | undefined;
  readonly onOutput: GuestLaunch['onOutput'];
}
