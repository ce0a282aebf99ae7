/**
 * The job message's `jobName` and `system.orchestrationId`, as github.com forms them:
 *
 * - a job without a matrix is `__default`;
 * - a matrix job is named after its matrix values (the values its display name shows: the
 *   vectors' for a cross-product combination, every value for an `include`-only one), depth
 *   first, booleans `true`/`false`, numbers in the runner's format; joined by `_`, every character
 *   but letters, digits, `_` and `-` replaced by `_`, `_` put in front of a leading digit or `-`,
 *   never starting with `__`, cut to 25 characters, and made unique among the job's combinations
 *   with `_2`, `_3`, ... (`alpha_7_true_0_context-68`, `toolu_self-hosted_toolu-8`);
 * - the orchestration id is `<planId>.<job path with / as .>.<jobName>`
 *   (`<plan>.call.inputs.__default` for the job `inputs` of the calling job `call`).
 *
 * The runner uses `jobName` as a directory name and as the job record's `refName`, hence the
 * safe alphabet.
 */
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import { formatRunnerNumber, type JsonObject, type JsonValue } from '../../../core/protocol/index.js';
import type { PlannedJob } from '../../../core/workflow/index.js';

export const DEFAULT_JOB_NAME = '__default';
const MAX_MATRIX_JOB_NAME = 25;
const MAX_SUFFIX = 999;

/** The `jobName` of every instance of a planned job, by instance id. */
export function jobNames(job: PlannedJob): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const vectorKeys = matrixVectorKeys(job);
  for (const instance of job.instances) {
    if (!job.matrix || instance.matrix === null) {
      names.set(instance.id, DEFAULT_JOB_NAME);
      continue;
    }
    const segments: string[] = [];
    for (const key of nameKeys(instance.matrix, vectorKeys)) collectSegments(instance.matrix[key] ?? null, segments);
    names.set(instance.id, unique(baseName(segments), taken));
  }
  return names;
}

/** `<planId>.<job path>.<jobName>`: path separators become dots, instance indexes are dropped. */
export function orchestrationId(planId: string, job: PlannedJob, jobName: string): string {
  const path = job.path.replace(/\[\d+\]/g, '').split('/').join('.');
  return `${planId}.${path}.${jobName}`;
}

/**
 * The vector keys of a literal `strategy.matrix` (its keys but `include` and `exclude`); empty
 * when the matrix has none or comes from an expression (then every value counts).
 */
function matrixVectorKeys(job: PlannedJob): readonly string[] {
  const strategy = job.template.strategy;
  if (strategy === undefined || !isMapping(strategy)) return [];
  const matrix = strategy.find('matrix');
  if (matrix === undefined || !isMapping(matrix)) return [];
  const keys: string[] = [];
  for (const pair of matrix) {
    const key = pair.key.toString();
    if (key !== 'include' && key !== 'exclude') keys.push(key);
  }
  return keys;
}

/** A cross-product combination carries every vector key; one an `include` added on its own may not. */
function nameKeys(matrix: JsonObject, vectorKeys: readonly string[]): readonly string[] {
  if (vectorKeys.length > 0 && vectorKeys.every((key) => Object.hasOwn(matrix, key))) return vectorKeys;
  return Object.keys(matrix);
}

function collectSegments(value: JsonValue, segments: string[]): void {
  if (value === null) return;
  if (typeof value === 'object') {
    const items = Array.isArray(value) ? (value as readonly JsonValue[]) : Object.values(value as JsonObject);
    for (const item of items) collectSegments(item, segments);
    return;
  }
  const text = typeof value === 'number' ? formatRunnerNumber(value) : String(value);
  if (text !== '') segments.push(text);
}

function baseName(segments: readonly string[]): string {
  let name = '';
  for (const segment of segments) {
    if (name === '' && /^[0-9-]/.test(segment)) name = '_';
    else if (name !== '') name += '_';
    name += segment.replace(/[^A-Za-z0-9_-]/g, '_');
  }
  if (name === '') name = 'job';
  return name.startsWith('__') ? `_${name.replace(/^_+/, '')}` : name;
}

function unique(base: string, taken: Set<string>): string {
  for (let attempt = 1; attempt <= MAX_SUFFIX; attempt++) {
    const suffix = attempt === 1 ? '' : base === '_' ? String(attempt) : `_${attempt}`;
    const candidate = base.slice(0, MAX_MATRIX_JOB_NAME - suffix.length) + suffix;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
  throw new Error('Unable to create a unique matrix job name');
}
