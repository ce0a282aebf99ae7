import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

/** The three files that make a runner configured (§1.8); owner-readable only. */
export const ROOT_FILES = {
  settings: '.runner',
  credentials: '.credentials',
  rsaParams: '.credentials_rsaparams',
} as const;
export type RootFileName = (typeof ROOT_FILES)[keyof typeof ROOT_FILES];
export const ROOT_FILE_NAMES: readonly RootFileName[] = [ROOT_FILES.settings, ROOT_FILES.credentials, ROOT_FILES.rsaParams];

/** Owner read/write only (SPEC "Runner root files"). */
export const OWNER_ONLY = 0o600;

/** A failure reading or writing the runner root, worded for the person at the terminal. */
export class RunnerConfigError extends Error {
  override readonly name = 'RunnerConfigError';
}

/**
 * The runner root (`--runner-root`, default the current directory): `.runner`, `.credentials`,
 * `.credentials_rsaparams`, the work folder (`_work/` unless `.runner` says otherwise) and
 * `externals/` (the JavaScript runtimes).
 */
export class RunnerRoot {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  path(name: RootFileName): string {
    return join(this.dir, name);
  }

  get externalsDir(): string {
    return join(this.dir, 'externals');
  }

  /** The work folder of `.runner`'s `workFolder` (relative to the root unless absolute). */
  workDir(workFolder: string): string {
    return isAbsolute(workFolder) ? workFolder : join(this.dir, workFolder);
  }

  async readText(name: RootFileName): Promise<string | undefined> {
    try {
      return await readFile(this.path(name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new RunnerConfigError(`cannot read ${this.path(name)}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Writes a root file readable by its owner only (also when it existed with a wider mode). */
  async writeOwnerOnly(name: RootFileName, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const path = this.path(name);
    await writeFile(path, text, { mode: OWNER_ONLY });
    await chmod(path, OWNER_ONLY);
  }

  /** Deletes the three configuration files; `_work/` and `externals/` stay. Returns those that existed. */
  async removeConfiguration(): Promise<RootFileName[]> {
    const removed: RootFileName[] = [];
    for (const name of ROOT_FILE_NAMES) {
      if ((await this.readText(name)) === undefined) continue;
      await rm(this.path(name), { force: true });
      removed.push(name);
    }
    return removed;
  }
}
