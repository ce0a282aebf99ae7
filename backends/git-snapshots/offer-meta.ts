import { InputError } from '../../core/kernel/index.js';
import type { SnapshotOffer, SnapshotPackMeta, SnapshotTag } from '../../core/ports/index.js';
import { assertObjectId } from './repository-names.js';
import { checkExpiry } from './snapshot-meta.js';

/**
 * What a sender says about its history, checked before git sees any of it: every id a full
 * object id (never a revision git would resolve), every tag name a ref name git accepts and
 * none both a tag and a directory of tags (git could not store both).
 */
export function checkOffer(offer: SnapshotOffer): SnapshotOffer {
  return {
    commit: assertObjectId(offer.commit),
    tags: checkTags(offer.tags),
    candidates: offer.candidates.map((sha) => assertObjectId(sha, 'candidate')),
    shallow: offer.shallow,
    retainUntil: checkExpiry(offer.retainUntil),
  };
}

export function checkPackMeta(meta: SnapshotPackMeta): SnapshotPackMeta {
  return {
    commit: assertObjectId(meta.commit),
    tags: checkTags(meta.tags),
    shallow: [...new Set(meta.shallow.map((sha) => assertObjectId(sha, 'shallow commit')))],
    retainUntil: checkExpiry(meta.retainUntil),
  };
}

function checkTags(tags: readonly SnapshotTag[]): SnapshotTag[] {
  const names = new Set<string>();
  for (const tag of tags) {
    assertTagName(tag.name);
    assertObjectId(tag.object, `object of tag ${tag.name}`);
    if (names.has(tag.name)) throw badTag(tag.name, 'is given twice');
    names.add(tag.name);
  }
  for (const name of names) {
    for (let slash = name.indexOf('/'); slash !== -1; slash = name.indexOf('/', slash + 1)) {
      if (names.has(name.slice(0, slash))) throw badTag(name, `is below the tag ${name.slice(0, slash)}`);
    }
  }
  return tags.map((tag) => ({ name: tag.name, object: tag.object }));
}

/** `git check-ref-format` for `refs/tags/<name>` (its rules, spelled out). */
export function assertTagName(name: string): void {
  const why =
    name === '' || name.length > 1024
      ? 'must be 1 to 1024 characters'
      : /[\x00-\x20\x7f~^:?*[\\]/.test(name)
        ? 'may not hold spaces, control characters or any of ~ ^ : ? * [ \\'
        : name.includes('..') || name.includes('@{') || name === '@'
          ? 'may not hold "..", "@{" or be "@"'
          : name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock')) || name.endsWith('.')
            ? 'may not have an empty part, a part starting with "." or ending with ".lock", or end with "."'
            : undefined;
  if (why !== undefined) throw badTag(name, why);
}

function badTag(name: string, why: string): InputError {
  return new InputError(`tag "${name}" ${why}`, { code: 'invalid_tag', details: { tag: name } });
}
