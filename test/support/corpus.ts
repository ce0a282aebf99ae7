/**
 * The conformance corpora (GitHub's expression and parser test data, captured job messages):
 * `../shared/corpus` beside the repository, or the directory `SVC_TEST_CORPUS_DIR` names. They
 * are not part of this repository, so a plain clone does not have them.
 *
 * As with PostgreSQL and Redis (services.ts): outside CI a missing corpus skips the suites that
 * read it, with a loud message naming the directory; with `CI=true` it is a failure.
 */
import { existsSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

export const CORPUS_VARIABLE = 'SVC_TEST_CORPUS_DIR';

/** `../shared/corpus/` beside the repository (this file is test/support/corpus.ts). */
export const DEFAULT_CORPUS_ROOT = new URL('../../../shared/corpus/', import.meta.url);

export interface CorpusGate {
  /** The part's directory (with a trailing slash) when it is there. */
  readonly dir: URL | undefined;
  /** For the `skip` option of describe/test: false when the corpus is there, the reason otherwise. */
  readonly skip: string | false;
}

export interface CorpusOptions {
  /** Default: `SVC_TEST_CORPUS_DIR`, else DEFAULT_CORPUS_ROOT. */
  readonly root?: URL;
  /** Default: `CI=true` in the environment. */
  readonly ci?: boolean;
}

export type CorpusStatus =
  | { readonly kind: 'present'; readonly dir: URL }
  | { readonly kind: 'missing'; readonly dir: URL; readonly message: string; readonly fail: boolean };

/** The corpus root in use: `SVC_TEST_CORPUS_DIR` (a path) when set, else `../shared/corpus/`. */
export function corpusRoot(env: NodeJS.ProcessEnv = process.env): URL {
  const configured = env[CORPUS_VARIABLE];
  if (configured === undefined || configured === '') return DEFAULT_CORPUS_ROOT;
  const url = pathToFileURL(configured);
  return url.href.endsWith('/') ? url : new URL(`${url.href}/`);
}

/** Whether `part` (e.g. `job-messages`) of the corpus is there, and what a missing one means. Pure. */
export function corpusStatus(part: string, options: CorpusOptions = {}): CorpusStatus {
  const dir = new URL(`${part}/`, options.root ?? corpusRoot());
  if (isDirectory(dir)) return { kind: 'present', dir };
  const fail = options.ci ?? process.env['CI'] === 'true';
  const where = `${dir.pathname} is missing`;
  const message = fail
    ? `${where}: CI must run the corpus suites (put the corpora at ${DEFAULT_CORPUS_ROOT.pathname} or set ${CORPUS_VARIABLE})`
    : `${where}: corpus suites SKIPPED (put the corpora at ${DEFAULT_CORPUS_ROOT.pathname} or set ${CORPUS_VARIABLE} to run them)`;
  return { kind: 'missing', dir, message, fail };
}

/**
 * Call at the top of a suite that reads `part` of the corpus, before reading anything. When the
 * part is missing it registers one test that fails (CI) or is skipped (elsewhere, also said on
 * stderr), and tells the rest of the suite to skip.
 */
export function requireCorpus(part: string, options: CorpusOptions = {}): CorpusGate {
  const status = corpusStatus(part, options);
  if (status.kind === 'present') return { dir: status.dir, skip: false };
  if (status.fail) {
    test(`corpus ${part} is there`, () => {
      throw new Error(status.message);
    });
    return { dir: undefined, skip: `${status.message} (see the failing test)` };
  }
  process.stderr.write(`\n${'!'.repeat(80)}\n!! ${status.message}\n${'!'.repeat(80)}\n\n`);
  // Skipped suites do not show in the summary counts; this one skipped test does.
  test(`corpus ${part}`, { skip: status.message }, () => undefined);
  return { dir: undefined, skip: status.message };
}

function isDirectory(url: URL): boolean {
  return existsSync(url) && statSync(url).isDirectory();
}
