import { spawnGit, type Git, type GitChild } from './git-process.js';

/** One object as `git cat-file --batch` answers it. */
export interface GitObject {
  readonly oid: string;
  readonly type: string;
  readonly content: Buffer;
}

interface Pending {
  readonly name: string;
  readonly resolve: (object: GitObject | undefined) => void;
  readonly reject: (error: Error) => void;
}

/** What can hold the event loop open: the child process and its pipes. */
interface Referenced {
  ref(): unknown;
  unref(): unknown;
}

/** How long a reader with nothing to do keeps its process. */
export const DEFAULT_READER_IDLE_MS = 30_000;

/**
 * One long-lived `git cat-file --batch` in one repository: an object read is a line written and
 * an answer read, not a git process started (a few milliseconds each on a small machine, and the
 * submit path reads several objects). Requests are written as they come and answered in order
 * (cat-file answers each before reading the next). Only object names the store builds are sent
 * (hex ids, `<id>^{commit}`, its own ref names): never a user's path, which could hold a newline.
 *
 * The process holds the event loop open only while a request waits, ends after `idleMs` without
 * one, and a reader whose process died (or was closed) is dead: its owner starts a new one.
 */
export class ObjectReader {
  readonly #child: GitChild;
  readonly #pending: Pending[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #idle: NodeJS.Timeout | undefined;
  #dead = false;

  constructor(git: Git, gitDir: string, private readonly idleMs: number = DEFAULT_READER_IDLE_MS) {
    this.#child = spawnGit(git, ['cat-file', '--batch'], gitDir);
    const { process: child } = this.#child;
    child.stdout.on('data', (chunk: Buffer) => this.#receive(chunk));
    // Ends with the process, normally or not: whatever still waits cannot be answered any more.
    this.#child.exited.then(
      () => this.#fail(new Error('git cat-file --batch ended')),
      (error: unknown) => this.#fail(error instanceof Error ? error : new Error(String(error))),
    );
    for (const stream of [child.stdin, child.stderr]) (stream as unknown as Referenced).unref();
    this.#holdLoop(false);
  }

  /** False once the process ended or is ending; such a reader answers nothing more. */
  get alive(): boolean {
    return !this.#dead;
  }

  /** The object `name` names, or undefined when git says it is missing. */
  read(name: string): Promise<GitObject | undefined> {
    if (/[\n\r\0]/.test(name)) return Promise.reject(new Error(`object name ${JSON.stringify(name)} cannot go on one line`));
    if (this.#dead) return Promise.reject(new Error('git cat-file --batch has ended'));
    clearTimeout(this.#idle);
    return new Promise<GitObject | undefined>((resolve, reject) => {
      this.#pending.push({ name, resolve, reject });
      this.#holdLoop(true);
      this.#child.process.stdin.write(`${name}\n`);
    });
  }

  /** Ends the process once it answered what was asked already. */
  close(): void {
    if (this.#dead) return;
    this.#dead = true;
    clearTimeout(this.#idle);
    this.#child.process.stdin.end();
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const head = this.#pending[0];
      if (head === undefined) return;
      const eol = this.#buffer.indexOf(0x0a);
      if (eol < 0) return;
      const header = this.#buffer.subarray(0, eol).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.#buffer = this.#buffer.subarray(eol + 1);
        this.#answered()?.resolve(undefined);
        continue;
      }
      const match = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
      if (match === null) {
        this.#fail(new Error(`git cat-file --batch answered "${header}" for ${head.name}`));
        this.close();
        return;
      }
      const size = Number(match[3]);
      // The content, then one LF.
      if (this.#buffer.length < eol + 1 + size + 1) return;
      const content = Buffer.from(this.#buffer.subarray(eol + 1, eol + 1 + size));
      this.#buffer = this.#buffer.subarray(eol + 1 + size + 1);
      this.#answered()?.resolve({ oid: match[1] ?? '', type: match[2] ?? '', content });
    }
  }

  #answered(): Pending | undefined {
    const done = this.#pending.shift();
    if (this.#pending.length === 0) {
      this.#holdLoop(false);
      if (!this.#dead) this.#idle = setTimeout(() => this.close(), this.idleMs).unref();
    }
    return done;
  }

  #fail(error: Error): void {
    this.#dead = true;
    clearTimeout(this.#idle);
    for (const waiting of this.#pending.splice(0)) waiting.reject(error);
    this.#holdLoop(false);
  }

  #holdLoop(hold: boolean): void {
    // The process too, not only its output: its exit is what answers a request it cannot serve.
    for (const handle of [this.#child.process, this.#child.process.stdout as unknown as Referenced]) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }
}

/** The live reader of each repository, started on first use and again after one ended. */
export class ObjectReaders {
  readonly #readers = new Map<string, ObjectReader>();

  constructor(
    private readonly git: Git,
    private readonly idleMs: number = DEFAULT_READER_IDLE_MS,
  ) {}

  read(gitDir: string, name: string): Promise<GitObject | undefined> {
    let reader = this.#readers.get(gitDir);
    if (reader === undefined || !reader.alive) {
      reader = new ObjectReader(this.git, gitDir, this.idleMs);
      this.#readers.set(gitDir, reader);
    }
    return reader.read(name);
  }

  /**
   * Retires a repository's reader (after a gc: the old process may still see pruned objects in
   * the packs it mapped). Reads already sent are answered; the next read starts a new process.
   */
  close(gitDir: string): void {
    this.#readers.get(gitDir)?.close();
    this.#readers.delete(gitDir);
  }
}
