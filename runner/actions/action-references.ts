/**
 * `uses:` values as step references (the server's conversion, for the steps of composite actions
 * the runner reads itself): `docker://image`, `./path` (the workspace), `$/path` (the workflow's
 * repository at its commit), `owner/repo[/path]@ref`.
 */
import type { ActionReference } from '../handlers/index.js';

export type UsesReference = Exclude<ActionReference, { kind: 'script' }>;

/** The reference of a `uses:` value; undefined when it is none of the forms above. */
export function referenceOfUses(uses: string): UsesReference | undefined {
  const value = uses.trim();
  if (value.toLowerCase().startsWith('docker://')) return { kind: 'container', image: value.slice('docker://'.length) };
  if (value.startsWith('./') || value.startsWith('.\\')) return { kind: 'repository', name: '', ref: '', path: value, repositoryType: 'self' };
  if (value.startsWith('$/')) return { kind: 'repository', name: '', ref: '', path: value.slice(2).replace(/^\/+/, ''), repositoryType: 'selfRepository' };
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return undefined;
  const [owner, repo, ...rest] = value.slice(0, at).split(/[/\\]/);
  if (owner === undefined || owner === '' || repo === undefined || repo === '') return undefined;
  return { kind: 'repository', name: `${owner}/${repo}`, ref: value.slice(at + 1), path: rest.filter((part) => part !== '').join('/'), repositoryType: 'GitHub' };
}

/** `owner/repo[/path]@ref`, `./path`, `docker://image`, as messages show a reference. */
export function usesText(reference: UsesReference): string {
  if (reference.kind === 'container') return `docker://${reference.image}`;
  if (reference.name === '') return reference.repositoryType.toLowerCase() === 'selfrepository' ? `$/${reference.path}` : reference.path;
  return `${reference.name}${reference.path === '' ? '' : `/${reference.path}`}@${reference.ref}`;
}
