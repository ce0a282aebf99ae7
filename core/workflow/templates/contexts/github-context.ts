/**
 * Builds the `github` context of a run from its event, the way GitHub fills it ("Contexts
 * reference → github context"): event name and payload, ref and sha (see event-refs.ts),
 * repository and actor from the payload unless given, the run's counters as strings, the
 * workflow's name (its path when it has none) and ref, and the server's URLs. The members the
 * runner sets while it runs a job (`job`, `workspace`, `action`, `token`, ...) are not here.
 */
import type { ExpressionObject } from '../../expressions/index.js';
import type { GithubContext } from './context-types.js';
import { eventRef, refName, refType } from './event-refs.js';
import { member, text } from './payload.js';

export interface GithubEventInput {
  /** `push`, `pull_request`, `workflow_dispatch`, ... */
  readonly name: string;
  readonly payload: ExpressionObject;
}

export interface GithubAccount {
  readonly login: string;
  readonly id: string | number;
}

export interface GithubRepositoryInput {
  /** `owner/name`. */
  readonly fullName: string;
  readonly id: string | number;
  readonly ownerId: string | number;
}

export interface GithubServerInput {
  /** `https://github.com`, or this installation's URL. */
  readonly serverUrl: string;
  /** Default: `https://api.github.com` for github.com, `<server>/api/v3` otherwise. */
  readonly apiUrl?: string;
  /** Default: `https://api.github.com/graphql` for github.com, `<server>/api/graphql` otherwise. */
  readonly graphqlUrl?: string;
}

export interface GithubContextInput {
  readonly event: GithubEventInput;
  /** The run's ref; default what the event implies (event-refs.ts). */
  readonly ref?: string;
  /** The run's commit; required when the event does not carry it. */
  readonly sha?: string;
  readonly refProtected?: boolean;
  /** Default: the payload's `repository`. */
  readonly repository?: GithubRepositoryInput;
  /** Who triggered the first run; default the payload's `sender`. */
  readonly actor?: GithubAccount;
  /** Who triggered this attempt (a re-run); default `actor`. */
  readonly triggeringActor?: GithubAccount;
  readonly run: {
    readonly id: string | number;
    readonly number: number;
    /** 1 for the first attempt. */
    readonly attempt: number;
    readonly retentionDays?: number;
  };
  readonly workflow: {
    /** The workflow's `name:`; default its path. */
    readonly name?: string;
    /** Path of the workflow file in the repository (`.github/workflows/ci.yml`). */
    readonly path: string;
    /** The commit the workflow file was read from; default the run's sha. */
    readonly sha?: string;
  };
  readonly server?: GithubServerInput;
  /** `Actions` (default), `Dependabot`, `Codespaces` or `None`. */
  readonly secretSource?: string;
}

const GITHUB_COM = 'https://github.com';
const DEFAULT_RETENTION_DAYS = 90;

export function buildGithubContext(input: GithubContextInput): GithubContext {
  const { event } = input;
  const implied = eventRef(event.name, event.payload);
  const ref = input.ref ?? implied.ref;
  const sha = input.sha ?? implied.sha;
  if (sha === undefined) {
    throw new TypeError(`the '${event.name}' event does not carry the run's commit; pass sha (the tip of '${ref}')`);
  }
  const repository = input.repository ?? repositoryOf(event.payload);
  const owner = repository.fullName.split('/')[0] ?? '';
  const actor = input.actor ?? accountOf(event.payload, 'sender');
  const triggeringActor = input.triggeringActor ?? actor;
  const server = serverUrls(input.server ?? { serverUrl: GITHUB_COM });
  const pull = pullRequestRefs(event);
  return {
    event_name: event.name,
    event: event.payload,
    ref,
    ref_name: refName(ref),
    ref_type: refType(ref),
    ref_protected: input.refProtected ?? false,
    sha,
    base_ref: pull.base,
    head_ref: pull.head,
    repository: repository.fullName,
    repository_id: String(repository.id),
    repository_owner: owner,
    repository_owner_id: String(repository.ownerId),
    repositoryUrl: `git://${new URL(server.server_url).host}/${repository.fullName}.git`,
    actor: actor.login,
    actor_id: String(actor.id),
    triggering_actor: triggeringActor.login,
    run_id: String(input.run.id),
    run_number: String(input.run.number),
    run_attempt: String(input.run.attempt),
    retention_days: String(input.run.retentionDays ?? DEFAULT_RETENTION_DAYS),
    workflow: input.workflow.name ?? input.workflow.path,
    workflow_ref: `${repository.fullName}/${input.workflow.path}@${ref}`,
    workflow_sha: input.workflow.sha ?? sha,
    ...server,
    secret_source: input.secretSource ?? 'Actions',
  };
}

function serverUrls(input: GithubServerInput): Pick<GithubContext, 'server_url' | 'api_url' | 'graphql_url'> {
  const server = input.serverUrl.replace(/\/+$/, '');
  const dotCom = server === GITHUB_COM;
  return {
    server_url: server,
    api_url: input.apiUrl ?? (dotCom ? 'https://api.github.com' : `${server}/api/v3`),
    graphql_url: input.graphqlUrl ?? (dotCom ? 'https://api.github.com/graphql' : `${server}/api/graphql`),
  };
}

function pullRequestRefs(event: GithubEventInput): { base: string; head: string } {
  if (!event.name.startsWith('pull_request')) return { base: '', head: '' };
  return {
    base: text(member(event.payload, 'pull_request', 'base', 'ref')),
    head: text(member(event.payload, 'pull_request', 'head', 'ref')),
  };
}

function repositoryOf(payload: ExpressionObject): GithubRepositoryInput {
  const fullName = text(member(payload, 'repository', 'full_name'));
  if (fullName === '') throw new TypeError('the payload has no repository; pass repository');
  return {
    fullName,
    id: text(member(payload, 'repository', 'id')),
    ownerId: text(member(payload, 'repository', 'owner', 'id')),
  };
}

function accountOf(payload: ExpressionObject, key: string): GithubAccount {
  return { login: text(member(payload, key, 'login')), id: text(member(payload, key, 'id')) };
}
