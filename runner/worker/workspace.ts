/**
 * The job's directories under the runner root (the official layout): `_work/<repo>/<repo>` is
 * `github.workspace` (and `_work/<repo>` `runner.workspace`), `_work/_temp` is `runner.temp`
 * (emptied at the start and the end of each job), `_work/_actions`, and the tool cache
 * (`runner.tool_cache`): the first of `RUNNER_TOOL_CACHE`, `RUNNER_TOOLSDIRECTORY`,
 * `AGENT_TOOLSDIRECTORY`, `agent.ToolsDirectory` set in the runner's environment, else
 * `_work/_tool`. The event payload goes to `_temp/_github_workflow/event.json`.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Directories } from '../handlers/index.js';

export interface JobDirectories extends Directories {
  /** `_work`. */
  readonly work: string;
  /** `runner.workspace`: `_work/<repo>`. */
  readonly runnerWorkspace: string;
  /** `_temp/_runner_file_commands`. */
  readonly fileCommands: string;
}

/** The repository's name part (`acme/widgets` → `widgets`), safe as one path segment. */
export function repositoryDirectoryName(repository: string): string {
  const name = repository.split('/').pop() ?? '';
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? 'workspace' : safe;
}

/** The variables naming a shared tool cache, in the order the runner reads them (HostContext, `Tools`). */
export const TOOL_CACHE_VARIABLES = ['RUNNER_TOOL_CACHE', 'RUNNER_TOOLSDIRECTORY', 'AGENT_TOOLSDIRECTORY', 'agent.ToolsDirectory'] as const;

/**
 * `runner.tool_cache`: the first of TOOL_CACHE_VARIABLES that is set (an empty value counts as
 * set and then means the default, as the runner's `??` then `IsNullOrEmpty` do), else
 * `<_work>/_tool`. A relative value is taken from the runner's working directory.
 */
export function toolCacheDirectory(work: string, environment: NodeJS.ProcessEnv = process.env): string {
  let value: string | undefined;
  for (const name of TOOL_CACHE_VARIABLES) {
    value = environment[name];
    if (value !== undefined) break;
  }
  return value === undefined || value === '' ? join(work, '_tool') : resolve(value);
}

export function jobDirectories(runnerRoot: string, repository: string, environment: NodeJS.ProcessEnv = process.env): JobDirectories {
  const work = join(runnerRoot, '_work');
  const name = repositoryDirectoryName(repository);
  const temp = join(work, '_temp');
  return {
    work,
    runnerWorkspace: join(work, name),
    workspace: join(work, name, name),
    temp,
    actions: join(work, '_actions'),
    tools: toolCacheDirectory(work, environment),
    fileCommands: join(temp, '_runner_file_commands'),
  };
}

/** `workspace.clean` of the message: `all` (the repository's directory), `resources` or `outputs`. */
export type WorkspaceClean = 'all' | 'resources' | 'outputs';

/** Creates the directories and empties `runner.temp`; applies a `workspace.clean` request. */
export async function prepareDirectories(dirs: JobDirectories, clean?: string): Promise<void> {
  const option = clean?.toLowerCase();
  if (option === 'all') await rm(dirs.runnerWorkspace, { recursive: true, force: true });
  else if (option === 'resources') await rm(dirs.workspace, { recursive: true, force: true });
  else if (option === 'outputs') await emptyExcept(dirs.runnerWorkspace, dirs.workspace);
  await emptyDirectory(dirs.temp);
  // Each creates its parents: no order needed.
  await Promise.all([dirs.runnerWorkspace, dirs.workspace, dirs.actions, dirs.tools, dirs.fileCommands].map((dir) => mkdir(dir, { recursive: true })));
}

export async function emptyDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all((await readdir(dir)).map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
}

async function emptyExcept(dir: string, keep: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) if (join(dir, entry) !== keep) await rm(join(dir, entry), { recursive: true, force: true });
}

/** Writes `github.event` as the event file; answers its path. */
export async function writeEventFile(dirs: JobDirectories, event: unknown): Promise<string> {
  const directory = join(dirs.temp, '_github_workflow');
  await mkdir(directory, { recursive: true });
  const path = join(directory, 'event.json');
  await writeFile(path, JSON.stringify(event ?? {}, null, 2), 'utf8');
  return path;
}
