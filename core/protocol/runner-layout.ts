/**
 * Files svc-runner keeps in its runner root that the built-in pool reads too (a contract between
 * our runner and our pool, not the official runner's).
 *
 * `.svc-workers/<pid>`: one empty file per running worker. A worker runs in a session of its own
 * (its job's processes go with its group), so when the listener is killed before it could stop
 * its worker, whoever ran the listener finds the worker there (the process backend, for a guest
 * it kills).
 */
export const RUNNER_WORKERS_DIR = '.svc-workers';
