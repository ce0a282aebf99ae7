type Mode = 'shared' | 'exclusive';

interface Waiter {
  readonly mode: Mode;
  readonly grant: () => void;
}

interface LockState {
  shared: number;
  exclusive: boolean;
  readonly queue: Waiter[];
}

/**
 * In-process shared/exclusive locks by key, granted in arrival order (a waiting exclusive
 * holder is not starved by a stream of shared ones). They guard one process only: several
 * nodes writing one repository need a lock they all see (see the store's notes).
 */
export class KeyedLocks {
  readonly #states = new Map<string, LockState>();

  shared<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#run(key, 'shared', work);
  }

  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#run(key, 'exclusive', work);
  }

  async #run<T>(key: string, mode: Mode, work: () => Promise<T>): Promise<T> {
    let state = this.#states.get(key);
    if (state === undefined) {
      state = { shared: 0, exclusive: false, queue: [] };
      this.#states.set(key, state);
    }
    await this.#acquire(state, mode);
    try {
      return await work();
    } finally {
      this.#release(key, state, mode);
    }
  }

  #acquire(state: LockState, mode: Mode): Promise<void> {
    if (state.queue.length === 0 && canEnter(state, mode)) {
      enter(state, mode);
      return Promise.resolve();
    }
    return new Promise((resolve) => state.queue.push({ mode, grant: resolve }));
  }

  #release(key: string, state: LockState, mode: Mode): void {
    if (mode === 'shared') state.shared -= 1;
    else state.exclusive = false;
    for (let next = state.queue[0]; next !== undefined && canEnter(state, next.mode); next = state.queue[0]) {
      state.queue.shift();
      enter(state, next.mode);
      next.grant();
    }
    if (state.shared === 0 && !state.exclusive && state.queue.length === 0) this.#states.delete(key);
  }
}

function canEnter(state: LockState, mode: Mode): boolean {
  return mode === 'shared' ? !state.exclusive : !state.exclusive && state.shared === 0;
}

function enter(state: LockState, mode: Mode): void {
  if (mode === 'shared') state.shared += 1;
  else state.exclusive = true;
}
