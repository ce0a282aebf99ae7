import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { spawnGit, type Git } from './git-process.js';
import type { TreeEntry } from './tar-reader.js';

/** Who and when, already checked (snapshot-meta.ts). */
export interface CommitHeader {
  readonly ref: string;
  readonly authorName: string;
  readonly authorEmail: string;
  /** Epoch seconds. */
  readonly seconds: number;
  readonly message: string;
  readonly parent?: string;
}

export interface ImportedFiles {
  readonly files: number;
  readonly bytes: number;
}

interface TreeLine {
  readonly mode: string;
  readonly mark: number;
  readonly path: string;
}

const LF = Buffer.from('\n');

/**
 * Streams the entries into `git fast-import` as blobs, then one commit on `header.ref` whose tree
 * is exactly those files (`deleteall` first, so a parent's files never leak in). Nothing touches
 * a work tree. Each call has its own fast-import process, which is how git supports several
 * writers in one repository: each writes its own pack and locks only its own ref.
 *
 * If the entries fail (a refused path, a broken archive), fast-import is killed before its stdin
 * closes: an early EOF would make it leave a crash report in the repository, a signal does not,
 * and its half-written temporary pack goes with the next `gc --prune=now`.
 */
export async function fastImport(git: Git, gitDir: string, entries: AsyncIterable<TreeEntry>, header: CommitHeader): Promise<ImportedFiles> {
  const child = spawnGit(git, ['fast-import', '--quiet', '--done', '--date-format=raw'], gitDir);
  const lines: TreeLine[] = [];
  let bytes = 0;
  let entriesFailed = false;

  async function* commands(): AsyncGenerator<Buffer> {
    try {
      for await (const entry of entries) {
        const mark = lines.length + 1;
        if (entry.kind === 'symlink') {
          yield Buffer.from(`blob\nmark :${mark}\ndata ${entry.target.length}\n`);
          yield entry.target;
          bytes += entry.target.length;
        } else {
          yield Buffer.from(`blob\nmark :${mark}\ndata ${entry.size}\n`);
          for await (const chunk of entry.data) yield chunk;
          bytes += entry.size;
        }
        yield LF;
        lines.push({ mode: entry.mode, mark, path: entry.path });
      }
    } catch (error) {
      entriesFailed = true;
      child.process.kill('SIGTERM');
      throw error;
    }
    yield commitCommand(header, lines);
    yield Buffer.from('done\n');
  }

  try {
    await pipeline(Readable.from(commands()), child.process.stdin);
  } catch (error) {
    if (entriesFailed) {
      await child.exited.catch(() => undefined);
      throw error;
    }
    // A broken pipe: fast-import died (its exit status says why), or it read `done` and exited
    // before the end of its stdin was signalled (a busy machine): exit 0, the import is whole.
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
  }
  await child.exited;
  return { files: lines.length, bytes };
}

function commitCommand(header: CommitHeader, lines: readonly TreeLine[]): Buffer {
  const ident = `${header.authorName} <${header.authorEmail}> ${header.seconds} +0000`;
  const message = Buffer.from(header.message, 'utf8');
  const parts: Buffer[] = [
    Buffer.from(`commit ${header.ref}\nauthor ${ident}\ncommitter ${ident}\ndata ${message.length}\n`),
    message,
    Buffer.from(`\n${header.parent === undefined ? '' : `from ${header.parent}\n`}deleteall\n`),
  ];
  for (const line of lines) {
    parts.push(Buffer.from(`M ${line.mode} :${line.mark} `), quotePath(line.path), LF);
  }
  parts.push(LF);
  return Buffer.concat(parts);
}

/**
 * C-style quoting, as fast-import reads it: always quoted, so a path starting with `"` or holding
 * a newline or a space-like byte means what it says; UTF-8 bytes pass through.
 */
export function quotePath(path: string): Buffer {
  const out: number[] = [0x22];
  for (const byte of Buffer.from(path, 'utf8')) {
    if (byte === 0x22 || byte === 0x5c) out.push(0x5c, byte);
    else if (byte < 0x20 || byte === 0x7f) out.push(0x5c, ...Buffer.from(byte.toString(8).padStart(3, '0')));
    else out.push(byte);
  }
  out.push(0x22);
  return Buffer.from(out);
}
