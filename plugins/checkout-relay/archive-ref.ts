import { NotFoundError } from '../../core/kernel/index.js';
import type { CheckoutTarget } from './checkout-target.js';

/**
 * Whether the `{ref}` of a tarball or zipball request names the run's commit: its sha (in full or
 * abbreviated to at least 7 digits, any case), its ref (`refs/heads/main`), or the ref's short
 * forms (`heads/main`, `main`). No ref at all (the forge's default branch) is the run's commit
 * too: the relay serves nothing else. Anything else is a 404 saying what is served.
 */
export function assertRunRef(target: CheckoutTarget, ref: string): void {
  if (ref === '' || namesRunCommit(target, ref)) return;
  throw new NotFoundError(`ref ${ref} not found: the checkout relay serves run ${target.runId}'s commit ${target.sha} (${target.ref}) only`, {
    code: 'ref_not_found',
    details: { ref, sha: target.sha, runRef: target.ref },
  });
}

function namesRunCommit(target: CheckoutTarget, ref: string): boolean {
  const lower = ref.toLowerCase();
  if (/^[0-9a-f]{7,64}$/.test(lower) && target.sha.startsWith(lower)) return true;
  if (!target.ref.startsWith('refs/')) return ref === target.ref;
  const short = target.ref.slice('refs/'.length);
  const name = short.slice(short.indexOf('/') + 1);
  return ref === target.ref || ref === short || ref === name;
}

/** GitHub's top-level directory (and file name) of an archive: `<owner>-<repo>-<short sha>`. */
export function archiveName(target: CheckoutTarget): string {
  return `${target.repository.replace('/', '-')}-${target.sha.slice(0, 7)}`;
}
