import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InputError } from '../../core/kernel/index.js';
import { GitCommandError, runGit, spawnGit, type Git } from './git-process.js';

/** Where packs wait while they are checked: `objects/svc-incoming-<id>`, removed whatever happens. */
export const QUARANTINE_PREFIX = 'svc-incoming-';

export interface PackCheck {
  /** The commit the pack completes: a commit once the pack is in. */
  readonly commit: string;
  /** The tags' objects, also complete once the pack is in. */
  readonly tagObjects: readonly string[];
  /** Commits whose parents are not expected (the store's shallow commits and the sender's). */
  readonly shallow: readonly string[];
}

export interface ReceivedPack {
  /** Objects in the pack as sent (its header's count). */
  readonly objects: number;
  readonly bytes: number;
}

/** git's messages that say the server is in trouble, not the pack: those stay 500s. */
const SERVER_TROUBLE = /No space left|Disk quota|Permission denied|Read-only file system|Too many open files|Cannot allocate memory|unable to create temporary/i;

/**
 * Receives a pack as `git receive-pack` does, without its protocol: `git index-pack --stdin
 * --fix-thin --strict` writes it into a quarantine object directory that borrows the store's
 * objects (so a thin pack's bases are found and appended), checks every object (fsck) and that
 * every object they point to is in the pack or the store (a parent of a shallow commit aside);
 * the commit and the tags' objects must exist; only then are the pack files moved into the
 * store (the index last: git sees a pack by its index). Any failure removes the quarantine: the
 * store is as it was. The caller holds the repository's shared lock, so no gc runs meanwhile.
 */
export async function receivePack(git: Git, gitDir: string, pack: Readable, check: PackCheck): Promise<ReceivedPack> {
  const objects = join(gitDir, 'objects');
  const quarantine = join(objects, `${QUARANTINE_PREFIX}${randomUUID()}`);
  await mkdir(join(quarantine, 'pack'), { recursive: true });
  const env = { GIT_OBJECT_DIRECTORY: quarantine, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects };
  try {
    // Where the history may stop, for the link check (git's own --shallow-file, as receive-pack passes it).
    const shallowArgs: string[] = [];
    if (check.shallow.length > 0) {
      const shallowFile = join(quarantine, 'shallow');
      await writeFile(shallowFile, `${check.shallow.join('\n')}\n`);
      shallowArgs.push('--shallow-file', shallowFile);
    }
    const received = await indexPack(git, gitDir, env, shallowArgs, pack);
    await checkTips(git, gitDir, env, check);
    await moveInto(join(quarantine, 'pack'), join(objects, 'pack'));
    return received;
  } finally {
    await rm(quarantine, { recursive: true, force: true });
  }
}

/**
 * fsck's findings about who and when (a bad time zone, a missing space before an email): old
 * histories have some (git.git has), and GitHub keeps them, so they are warnings here. Every
 * other finding, the ones about paths (`.git`, `..`, `.gitmodules`) and broken objects among
 * them, refuses the pack.
 */
const IDENT_FINDINGS = ['badDate', 'badDateOverflow', 'badEmail', 'badName', 'badTimezone', 'missingEmail', 'missingNameBeforeEmail', 'missingSpaceBeforeDate', 'missingSpaceBeforeEmail', 'zeroPaddedDate'];

async function indexPack(git: Git, gitDir: string, env: Record<string, string>, shallowArgs: readonly string[], pack: Readable): Promise<ReceivedPack> {
  const strict = `--strict=${IDENT_FINDINGS.map((id) => `${id}=warn`).join(',')}`;
  const child = spawnGit(git, [...shallowArgs, 'index-pack', '--stdin', '--fix-thin', strict], gitDir, env);
  child.process.stdout.resume();
  let bytes = 0;
  let header = Buffer.alloc(0);
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (header.length < 12) header = Buffer.concat([header, chunk.subarray(0, 12 - header.length)]);
      done(null, chunk);
    },
  });
  // The upload's own failure (over the size limit, cut off) says more than git's "early EOF"; an
  // error the pipeline passes back to the upload once git's stdin broke or closed is git's doing.
  let sourceError: unknown;
  let gitGone = false;
  child.process.stdin.once('error', () => (gitGone = true));
  child.process.stdin.once('close', () => (gitGone = true));
  pack.once('error', (error) => {
    if (!gitGone) sourceError ??= error;
  });
  // A failed feed is read through git's exit (and sourceError): when index-pack exits 0 it has
  // checked the pack's trailing checksum, so the pack is whole, and as it exits without waiting
  // for the end of its stdin, writing that end may fail (EPIPE, a premature close) harmlessly.
  const fed = pipeline(pack, counted, child.process.stdin).catch(() => undefined);
  const [, exitError] = await Promise.all([fed, child.exited.then(() => undefined, (error: unknown) => error)]);
  if (sourceError !== undefined) throw sourceError;
  if (exitError instanceof GitCommandError && /did not receive expected object/.test(exitError.stderr)) {
    throw incomplete(`an object the pack's objects point to is neither in the pack nor on the server (git: ${gitSaid(exitError.stderr)})${SEND_WHAT_IS_MISSING}`);
  }
  if (exitError instanceof GitCommandError && !SERVER_TROUBLE.test(exitError.stderr)) {
    throw new InputError(`the pack is refused (git index-pack: ${gitSaid(exitError.stderr) || 'unreadable'}); send a whole git pack, as \`git pack-objects --stdout\` writes it`, {
      code: 'snapshot_pack_invalid',
      details: { stderr: exitError.stderr },
    });
  }
  if (exitError !== undefined) throw exitError;
  const objects = header.length === 12 && header.toString('latin1', 0, 4) === 'PACK' ? header.readUInt32BE(8) : 0;
  return { objects, bytes };
}

/**
 * The commit and the tags' objects exist (in the pack or the store) and the commit is one. That
 * they are whole is index-pack's `--strict` check: every object the pack's objects point to is
 * in the pack or the store, and what the store holds is whole up to its shallow commits.
 */
async function checkTips(git: Git, gitDir: string, env: Record<string, string>, check: PackCheck): Promise<void> {
  const tips = [...new Set([check.commit, ...check.tagObjects])];
  const types = await runGit(git, ['cat-file', '--batch-check'], { gitDir, env, input: `${tips.join('\n')}\n` });
  for (const line of types.stdout.toString('utf8').split('\n')) {
    const [id = '', type = ''] = line.split(' ');
    if (type === 'missing') throw incomplete(`it does not hold ${id === check.commit ? 'the commit' : 'the tagged object'} ${id}, and neither does the server`);
    if (id === check.commit && type !== 'commit') throw incomplete(`${id} is a ${type}, not a commit`);
  }
}

const SEND_WHAT_IS_MISSING = "; send what the negotiation said the server lacks, and a shallow clone's shallow commits";

function incomplete(why: string): InputError {
  return new InputError(`the pack is incomplete: ${why}`, { code: 'snapshot_pack_incomplete' });
}

/** git's `error:` and `fatal:` lines without their prefixes (the last three), or its last line. */
function gitSaid(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => /^(fatal|error): /.test(line));
  const said = lines.length === 0 ? [stderr.split('\n').at(-1) ?? ''] : lines.slice(-3);
  return said.map((line) => line.replace(/^(fatal|error): /, '').trim()).join('; ');
}

/** Moves the quarantine's pack files into the store: everything else first, each `.idx` last. */
async function moveInto(from: string, to: string): Promise<void> {
  const names = (await readdir(from)).filter((name) => name.startsWith('pack-'));
  const ordered = [...names.filter((name) => !name.endsWith('.idx')), ...names.filter((name) => name.endsWith('.idx'))];
  await mkdir(to, { recursive: true });
  for (const name of ordered) await rename(join(from, name), join(to, name));
}

/** Quarantines a crash left behind; prune removes them while no import runs. */
export async function removeQuarantines(gitDir: string): Promise<void> {
  const objects = join(gitDir, 'objects');
  for (const name of await readdir(objects)) {
    if (name.startsWith(QUARANTINE_PREFIX)) await rm(join(objects, name), { recursive: true, force: true });
  }
}
