import { readFile } from 'node:fs/promises';
import { localGit } from './local-git.js';

export interface HistoryTag {
  readonly name: string;
  /** The annotated tag object, or the commit of a lightweight tag. */
  readonly object: string;
}

/** What the client tells the server about HEAD's history, so only the objects it lacks travel. */
export interface HistoryOffer {
  /** HEAD and first-parent ancestors, nearest first: every one of the nearest, then sparser. */
  readonly candidates: readonly string[];
  /** The tags whose commit HEAD reaches (what `git describe --tags` can name). */
  readonly tags: readonly HistoryTag[];
}

/** How far back along first parents the candidates go; older history is found by none of them. */
const CANDIDATE_DEPTH = 4096;
/** The nearest ancestors offered one by one (a run a few commits ago is found exactly). */
const DENSE = 16;

/**
 * HEAD's first-parent line (`rev-list --first-parent`, up to CANDIDATE_DEPTH commits), of which
 * the nearest DENSE and then every power of two (and the last) are offered, and the tags merged
 * into HEAD. The server names the nearest candidate it holds; the pack then leaves out
 * everything that one reaches. Two git processes, at once; before the first commit, nothing.
 */
export async function readHistoryOffer(root: string): Promise<HistoryOffer> {
  const [line, tagged] = await Promise.all([
    localGit(root, ['rev-list', '--first-parent', `--max-count=${CANDIDATE_DEPTH}`, 'HEAD', '--'], [128]),
    localGit(root, ['for-each-ref', '--merged=HEAD', '--format=%(objectname) %(refname)', 'refs/tags/'], [128, 129]),
  ]);
  const lines = (result: { code: number; stdout: Buffer }) => (result.code === 0 ? result.stdout.toString('utf8').split('\n').filter(Boolean) : []);
  return { candidates: sampleCandidates(lines(line)), tags: parseTags(lines(tagged)) };
}

export function sampleCandidates(line: readonly string[]): string[] {
  const picked: string[] = [];
  for (let index = 0; index < line.length; index = index < DENSE ? index + 1 : index * 2) picked.push(line[index] ?? '');
  const last = line.at(-1);
  if (last !== undefined && picked.at(-1) !== last) picked.push(last);
  return picked;
}

function parseTags(lines: readonly string[]): HistoryTag[] {
  const tags: HistoryTag[] = [];
  for (const line of lines) {
    const space = line.indexOf(' ');
    tags.push({ object: line.slice(0, space), name: line.slice(space + 1 + 'refs/tags/'.length) });
  }
  return tags;
}

/** The repository's shallow commits (a shallow clone's), from its `shallow` file; none for a whole clone. */
export async function readShallowCommits(shallowFile: string): Promise<string[]> {
  try {
    return (await readFile(shallowFile, 'utf8')).split('\n').filter((line) => /^[0-9a-f]{40,64}$/.test(line));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
