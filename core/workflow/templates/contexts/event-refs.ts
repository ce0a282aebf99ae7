/**
 * `GITHUB_REF` and `GITHUB_SHA` of a run, per event, as "Events that trigger workflows" lists
 * them. The payload gives them for some events (a push: the ref pushed and its new tip); for
 * others GitHub uses the default branch, or a commit the payload does not carry (the tagged
 * commit of a release, the tip of a created branch). Then `sha` is undefined and the caller
 * resolves the commit `ref` points at.
 */
import type { ExpressionObject } from '../../expressions/index.js';
import { member, optionalText, text } from './payload.js';

export interface EventRef {
  /** The full ref (`refs/heads/main`, `refs/tags/v1`, `refs/pull/5/merge`), or '' for none. */
  readonly ref: string;
  /** The commit; undefined when it is the current tip of `ref`, which the caller looks up. */
  readonly sha: string | undefined;
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

export function eventRef(eventName: string, payload: ExpressionObject): EventRef {
  const defaultBranch: EventRef = { ref: branchRef(text(member(payload, 'repository', 'default_branch'))), sha: undefined };
  switch (eventName) {
    case 'push': {
      // A deleted branch's run reverts to the default branch.
      if (member(payload, 'deleted') === true) return defaultBranch;
      return { ref: text(member(payload, 'ref')), sha: optionalText(member(payload, 'after')) };
    }
    case 'pull_request_target':
      // The base branch, and its last commit: the workflow comes from the base, not the PR.
      return { ref: branchRef(text(member(payload, 'pull_request', 'base', 'ref'))), sha: undefined };
    case 'release':
      return { ref: `refs/tags/${text(member(payload, 'release', 'tag_name'))}`, sha: undefined };
    case 'create': {
      const kind = text(member(payload, 'ref_type'));
      const name = text(member(payload, 'ref'));
      return { ref: kind === 'tag' ? `refs/tags/${name}` : branchRef(name), sha: undefined };
    }
    case 'deployment':
    case 'deployment_status': {
      const sha = optionalText(member(payload, 'deployment', 'sha'));
      const ref = text(member(payload, 'deployment', 'ref'));
      // Empty when the deployment was created with a commit SHA.
      if (ref === '' || ref === sha) return { ref: '', sha };
      return { ref: ref.startsWith('refs/') ? ref : branchRef(ref), sha };
    }
    case 'workflow_dispatch':
      return { ref: text(member(payload, 'ref')), sha: undefined };
    case 'merge_group':
      return {
        ref: text(member(payload, 'merge_group', 'head_ref')),
        sha: optionalText(member(payload, 'merge_group', 'head_sha')),
      };
  }
  if (PULL_REQUEST_EVENTS.has(eventName)) {
    // The PR's merge branch and its last merge commit.
    const number = member(payload, 'pull_request', 'number') ?? member(payload, 'number');
    return {
      ref: `refs/pull/${text(number)}/merge`,
      sha: optionalText(member(payload, 'pull_request', 'merge_commit_sha')),
    };
  }
  return defaultBranch;
}

/** `github.ref_name`: the short name (`main`, `v1`, `5/merge`). */
export function refName(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/pull/']) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  return ref.startsWith('refs/') ? ref.slice('refs/'.length) : ref;
}

/** `github.ref_type`: `tag` for tags, `branch` for branches and pull request refs. */
export function refType(ref: string): 'branch' | 'tag' | '' {
  if (ref.startsWith('refs/tags/')) return 'tag';
  if (ref.startsWith('refs/heads/') || ref.startsWith('refs/pull/')) return 'branch';
  return '';
}

function branchRef(name: string): string {
  if (name === '') return '';
  return name.startsWith('refs/') ? name : `refs/heads/${name}`;
}
