/**
 * File commands (FileCommandManager): before each step, empty files under
 * `_temp/_runner_file_commands` (`add_path_`, `set_env_`, `step_summary_`, `save_state_`,
 * `set_output_` plus one fresh suffix) whose paths the step sees as `GITHUB_PATH`, `GITHUB_ENV`,
 * `GITHUB_STEP_SUMMARY`, `GITHUB_STATE`, `GITHUB_OUTPUT`; after it, each file is applied in
 * that order. A file that cannot be applied fails the step (`Unable to process file command
 * '<name>' successfully.`); an over-sized summary is an error that does not.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blockedEnvFileMessage, parseKeyValueFile, parsePathFile, readStepSummary, unableToProcessFileCommandMessage } from '../commands/index.js';
import type { JobState } from './job-state.js';
import type { RecordContext } from './record-context.js';

interface FileCommand {
  /** The `github` context member (and `GITHUB_<NAME>` variable). */
  readonly contextName: 'path' | 'env' | 'step_summary' | 'state' | 'output';
  readonly prefix: string;
}

const COMMANDS: readonly FileCommand[] = [
  { contextName: 'path', prefix: 'add_path_' },
  { contextName: 'env', prefix: 'set_env_' },
  { contextName: 'step_summary', prefix: 'step_summary_' },
  { contextName: 'state', prefix: 'save_state_' },
  { contextName: 'output', prefix: 'set_output_' },
];

export interface StepFiles {
  /** `github` context members to set for the step: `path`, `env`, `step_summary`, `state`, `output`. */
  readonly paths: Readonly<Record<FileCommand['contextName'], string>>;
}

export interface FileCommandTarget {
  readonly record: RecordContext;
  readonly job: JobState;
  /** The step's id in the `steps` context. */
  readonly contextName: string | undefined;
  /** `save-state` values of the step (its post stage sees them as `STATE_*`). */
  readonly state: Record<string, string>;
  readonly attachSummary: (markdown: string) => void;
}

export async function createStepFiles(directory: string): Promise<StepFiles> {
  const suffix = randomUUID();
  const paths = {} as Record<FileCommand['contextName'], string>;
  for (const command of COMMANDS) paths[command.contextName] = join(directory, `${command.prefix}${suffix}`);
  await Promise.all(COMMANDS.map((command) => writeFile(paths[command.contextName], '')));
  return { paths };
}

/** Applies the step's files; answers false when one of them failed the step. */
export async function processStepFiles(files: StepFiles, target: FileCommandTarget): Promise<boolean> {
  // Read together (a step's end waits for them), applied one by one in the runner's order.
  const loaded = await Promise.all(COMMANDS.map((command) => load(command.contextName, files.paths[command.contextName])));
  let ok = true;
  for (const [index, command] of COMMANDS.entries()) {
    const { content, error } = loaded[index] ?? {};
    if (command.contextName === 'step_summary') {
      // A summary that cannot be read is an error that does not fail the step.
      if (error !== undefined) target.record.error(messageOf(error));
      else if (content !== undefined && content !== '') target.attachSummary(content);
      continue;
    }
    try {
      if (error !== undefined) throw error;
      if (content !== undefined && content !== '') apply(command.contextName, content, target);
    } catch (failure) {
      target.record.error(unableToProcessFileCommandMessage(command.contextName));
      target.record.error(messageOf(failure));
      ok = false;
    }
  }
  await Promise.all(COMMANDS.map((command) => rm(files.paths[command.contextName], { force: true })));
  return ok;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface LoadedFile {
  readonly content?: string | undefined;
  readonly error?: unknown;
}

async function load(name: FileCommand['contextName'], path: string): Promise<LoadedFile> {
  try {
    return { content: name === 'step_summary' ? await readStepSummary(path) : await read(path) };
  } catch (error) {
    return { error };
  }
}

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A non-empty file's effects (a summary is attached, not applied). */
function apply(name: Exclude<FileCommand['contextName'], 'step_summary'>, content: string, target: FileCommandTarget): void {
  if (name === 'path') {
    for (const entry of parsePathFile(content)) target.job.addPath(entry);
    return;
  }
  const pairs = parseKeyValueFile(content, name);
  for (const { name: key, value } of pairs) {
    if (name === 'env') {
      const blocked = blockedEnvFileMessage(key);
      if (blocked !== undefined) {
        target.record.error(blocked);
        continue;
      }
      target.job.env.set(key, value);
      target.record.debug(`${key}='${value}'`);
    } else if (name === 'state') {
      target.state[key] = value;
      target.record.debug(`Save intra-action state ${key} = ${value}`);
    } else {
      target.job.steps.setOutput(target.contextName, key, value);
      target.record.debug(`Set output ${key} = ${value}`);
    }
  }
}
