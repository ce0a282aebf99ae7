import type { CredentialStore, SharedKeys } from '../../ports/index.js';

/**
 * On a single-node store the shared keys are the node's credential store, unchanged (same
 * entries, same files). The conditional write is read-compare-write: only one server uses a
 * data directory's credential store, and its callers already serialise their own writes.
 */
export function localSharedKeys(store: CredentialStore): SharedKeys {
  return {
    kind: store.kind,
    persistent: store.persistent,
    shared: false,
    get: (name) => store.get(name),
    set: (name, value) => store.set(name, value),
    delete: (name) => store.delete(name),
    async compareAndSet(name, expected, value) {
      if ((await store.get(name)) === expected) await store.set(name, value);
      return store.get(name);
    },
  };
}
