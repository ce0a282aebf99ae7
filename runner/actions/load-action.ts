/**
 * An action's files → its definition, as the runner's LoadAction reads them: `action.yml`, then
 * `action.yaml` (parsed and checked by core/workflow), else a `Dockerfile` (or `dockerfile`)
 * alone makes a container action. A manifest with problems fails with each problem placed in the
 * file (`<file> (Line: l, Col: c): …`) and `Failed to load <file>`; nothing at all fails with
 * the runner's "Can't find 'action.yml', 'action.yaml' or 'Dockerfile' …".
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ACTION_FILE_NAMES, parseActionManifest } from '../../core/workflow/index.js';
import type { ActionDefinition, ActionOrigin } from './action-definition.js';

/** An action that cannot be loaded; `problems` are the lines to show, the last one saying what failed. */
export class ActionLoadError extends Error {
  override readonly name = 'ActionLoadError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

export interface LoadActionOptions {
  /** How messages name the action's folder (`acme/hello/v1`, `.github/actions/greet`). */
  readonly displayPath: string;
  readonly origin: ActionOrigin;
  /** The message when the folder holds neither a manifest nor a Dockerfile. */
  readonly missingMessage: string;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

const BUILT_IN_USINGS = new Set(['composite', 'docker', 'node12', 'node16', 'node20', 'node24']);

/**
 * A manifest whose `runs.using` is none of GitHub's (a third-party handler's): read as plain
 * YAML, since the action schema refuses it; the registry decides whether anything runs it.
 */
function customDefinition(content: string, file: string, directory: string, origin: ActionOrigin): ActionDefinition | undefined {
  let metadata: unknown;
  try {
    metadata = parseYaml(content) as unknown;
  } catch {
    return undefined;
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  const runs = (metadata as Record<string, unknown>)['runs'];
  if (typeof runs !== 'object' || runs === null || Array.isArray(runs)) return undefined;
  const using = (runs as Record<string, unknown>)['using'];
  if (typeof using !== 'string' || using.trim() === '' || BUILT_IN_USINGS.has(using.trim().toLowerCase())) return undefined;
  return { kind: 'custom', using: using.trim().toLowerCase(), metadata: metadata as Record<string, unknown>, runs: runs as Record<string, unknown>, file, directory, origin };
}

export async function loadActionDirectory(directory: string, options: LoadActionOptions): Promise<ActionDefinition> {
  for (const name of ACTION_FILE_NAMES) {
    const file = join(directory, name);
    if (!(await isFile(file))) continue;
    const fileName = options.displayPath === '' ? name : `${options.displayPath}/${name}`;
    const content = await readFile(file, 'utf8');
    const custom = customDefinition(content, file, directory, options.origin);
    if (custom !== undefined) return custom;
    const result = parseActionManifest(content, { fileName });
    if (result.manifest === undefined) {
      const problems = result.errors.map((error) => error.text);
      throw new ActionLoadError([...(problems.length > 0 ? problems : [`${fileName} is not an action manifest`]), `Failed to load ${fileName}`]);
    }
    return { kind: 'manifest', manifest: result.manifest, fileTable: result.fileTable, file, directory, origin: options.origin };
  }
  for (const name of ['Dockerfile', 'dockerfile']) {
    const file = join(directory, name);
    if (await isFile(file)) return { kind: 'container', image: { kind: 'dockerfile', path: file }, directory, origin: options.origin };
  }
  throw new ActionLoadError([options.missingMessage]);
}

/** A local action (`./path`, relative to `github.workspace`), read when its step runs. */
export async function loadLocalAction(path: string, workspace: string): Promise<ActionDefinition> {
  const relativePath = path.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+$/, '');
  const directory = relativePath === '' || relativePath === '.' ? workspace : join(workspace, ...relativePath.split('/'));
  return loadActionDirectory(directory, {
    displayPath: relativePath === '.' ? '' : relativePath,
    origin: { display: path },
    missingMessage: `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '${directory}'. Did you forget to run actions/checkout before running your local action?`,
  });
}
