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
  for (const command of COMMANDS) {
    const path = join(directory, `${command.prefix}${suffix}`);
    await writeFile(path, '');
    paths[command.contextName] = path;
  }
  return { paths };
}

/** Applies the step's files; answers false when one of them failed the step. */
export async function processStepFiles(files: StepFiles, target: FileCommandTarget): Promise<boolean> {
  let ok = true;
  for (const command of COMMANDS) {
    const path = files.paths[command.contextName];
    try {
      await apply(command.contextName, path, target);
    } catch (error) {
      target.record.error(unableToProcessFileCommandMessage(command.contextName));
      target.record.error(error instanceof Error ? error.message : String(error));
      ok = false;
    }
  }
  for (const command of COMMANDS) await rm(files.paths[command.contextName], { force: true });
  return ok;
}

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function apply(name: FileCommand['contextName'], path: string, target: FileCommandTarget): Promise<void> {
  if (name === 'step_summary') {
    let summary: string | undefined;
    try {
      summary = await readStepSummary(path);
    } catch (error) {
      target.record.error(error instanceof Error ? error.message : String(error));
      return;
    }
    if (summary !== undefined && summary !== '') target.attachSummary(summary);
    return;
  }
  const content = await read(path);
  if (content === undefined || content === '') return;
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
