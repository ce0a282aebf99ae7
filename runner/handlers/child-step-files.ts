/**
 * File commands of a step inside a composite action. Each nested step gets its own
 * `GITHUB_OUTPUT`, `GITHUB_STATE`, `GITHUB_ENV`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` in
 * `runner.temp`, as on the runner. Afterwards outputs and state go to the nested step;
 * `GITHUB_ENV` and `GITHUB_PATH` entries are kept for the composite's later steps and appended to
 * the composite step's own files, so the job applies them when the composite step ends (as it
 * does for any step); the summary is appended to the composite step's summary.
 */
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blockedEnvFileMessage, parseKeyValueFile, parsePathFile, unableToProcessFileCommandMessage } from '../commands/index.js';
import type { StepLog } from './handler-types.js';

const FILES = { path: 'add_path_', env: 'set_env_', step_summary: 'step_summary_', state: 'save_state_', output: 'set_output_' } as const;
type FileName = keyof typeof FILES;

export interface ChildFiles {
  /** `GITHUB_PATH`, `GITHUB_ENV`, ... of the nested step. */
  readonly variables: Readonly<Record<string, string>>;
  /** The `github` context members (`path`, `env`, `output`, `state`, `step_summary`). */
  readonly github: Readonly<Record<FileName, string>>;
}

export interface ChildFileEffects {
  readonly outputs: Record<string, string>;
  readonly state: Record<string, string>;
  readonly env: Record<string, string>;
  /** New `PATH` entries, in the order added. */
  readonly path: string[];
  /** A file could not be applied: the step fails. */
  failed: boolean;
}

export async function createChildFiles(temp: string): Promise<ChildFiles> {
  const directory = join(temp, '_runner_file_commands');
  await mkdir(directory, { recursive: true });
  const suffix = randomUUID();
  const github = {} as Record<FileName, string>;
  const variables: Record<string, string> = {};
  for (const [name, prefix] of Object.entries(FILES) as [FileName, string][]) {
    const path = join(directory, `${prefix}${suffix}`);
    await writeFile(path, '');
    github[name] = path;
    variables[`GITHUB_${name.toUpperCase()}`] = path;
  }
  return { variables, github };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}

/** Appends a nested step's file to the composite step's file of the same kind (when it has one). */
async function forward(outer: string | undefined, content: string): Promise<void> {
  if (outer === undefined || outer === '' || content === '') return;
  const existing = await readText(outer);
  const separator = existing !== '' && !existing.endsWith('\n') ? '\n' : '';
  await appendFile(outer, `${separator}${content}${content.endsWith('\n') ? '' : '\n'}`);
}

/** `name<<delimiter` blocks, which carry any value (the env entries the job must see). */
function heredocs(entries: Readonly<Record<string, string>>): string {
  return Object.entries(entries)
    .map(([key, value]) => {
      const delimiter = `ghadelimiter_${randomUUID()}`;
      return `${key}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/**
 * Applies the nested step's files (PATH, ENV, SUMMARY, STATE, OUTPUT, the runner's order) into
 * `effects`, forwarding what the job must see through `outer` (the composite step's variables),
 * then removes them.
 */
export async function applyChildFiles(files: ChildFiles, outer: Readonly<Record<string, string>>, effects: ChildFileEffects, log: StepLog): Promise<void> {
  for (const name of Object.keys(FILES) as FileName[]) {
    const path = files.github[name];
    const content = await readText(path);
    try {
      if (content === '') continue;
      if (name === 'path') {
        effects.path.push(...parsePathFile(content));
        await forward(outer['GITHUB_PATH'], content);
      } else if (name === 'step_summary') {
        await forward(outer['GITHUB_STEP_SUMMARY'], content);
      } else {
        for (const { name: key, value } of parseKeyValueFile(content, name)) {
          if (name === 'env') {
            const blocked = blockedEnvFileMessage(key);
            if (blocked !== undefined) {
              log.error(blocked);
              continue;
            }
            effects.env[key] = value;
          } else if (name === 'state') {
            effects.state[key] = value;
          } else {
            effects.outputs[key] = value;
          }
        }
        if (name === 'env') await forward(outer['GITHUB_ENV'], heredocs(effects.env));
      }
    } catch (error) {
      log.error(unableToProcessFileCommandMessage(name));
      log.error(error instanceof Error ? error.message : String(error));
      effects.failed = true;
    }
  }
  for (const path of Object.values(files.github)) await rm(path, { force: true });
}
