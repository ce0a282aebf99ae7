/**
 * The problem-matcher file (`{"problemMatcher": [{owner, severity?, fromPath?, pattern: [...]}]}`)
 * read and validated with the runner's rules and messages. The runner reads it with Newtonsoft:
 * comments and trailing commas are accepted, property names match in any case, and numbers may be
 * written as strings.
 */

export interface PatternConfig {
  readonly regexp: RegExp;
  readonly source: string;
  readonly file?: number;
  readonly line?: number;
  readonly column?: number;
  readonly severity?: number;
  readonly code?: number;
  readonly message?: number;
  readonly fromPath?: number;
  readonly loop: boolean;
}

export interface MatcherConfig {
  readonly owner: string;
  /** '' when not set. */
  readonly severity: string;
  /** '' when not set. */
  readonly fromPath: string;
  readonly patterns: readonly PatternConfig[];
}

export class ProblemMatcherError extends Error {
  override readonly name = 'ProblemMatcherError';
  constructor(
    message: string,
    readonly source?: string,
  ) {
    super(message);
  }
}

/** Copies a JSON string literal starting at `i`; returns the index after it. */
function skipString(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

const CLOSING_AFTER_SPACE = /\s*[\]}]/y;

/** Drops comments and trailing commas outside strings, so JSON.parse reads what Newtonsoft reads. */
export function stripJsonExtensions(text: string): string {
  let noComments = '';
  for (let i = 0; i < text.length; ) {
    if (text[i] === '"') {
      const end = skipString(text, i);
      noComments += text.slice(i, end);
      i = end;
    } else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      noComments += ' ';
    } else {
      noComments += text[i];
      i++;
    }
  }
  let out = '';
  for (let i = 0; i < noComments.length; ) {
    if (noComments[i] === '"') {
      const end = skipString(noComments, i);
      out += noComments.slice(i, end);
      i = end;
      continue;
    }
    CLOSING_AFTER_SPACE.lastIndex = i + 1;
    if (noComments[i] !== ',' || !CLOSING_AFTER_SPACE.test(noComments)) out += noComments[i];
    i++;
  }
  return out;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(object: JsonObject, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(object)) if (key.toLowerCase() === lower) return object[key];
  return undefined;
}

function toInt(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < -2147483648 || n > 2147483647) {
    throw new ProblemMatcherError(`Could not convert ${JSON.stringify(value)} to an integer. Path '${path}'.`);
  }
  return n;
}

function toBool(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ProblemMatcherError(`Could not convert ${JSON.stringify(value)} to a boolean. Path '${path}'.`);
}

function toText(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ProblemMatcherError(`Unexpected value for '${path}': expected a string.`);
}

/** The number of groups a .NET match reports (group 0 included). */
function groupCount(regexp: RegExp): number {
  return new RegExp(`${regexp.source}|`).exec('')?.length ?? 1;
}

const INDEX_FIELDS = ['file', 'line', 'column', 'severity', 'code', 'message', 'fromPath'] as const;
type IndexField = (typeof INDEX_FIELDS)[number];

interface RawPattern {
  readonly source: string;
  readonly loop: boolean;
  readonly indexes: Partial<Record<IndexField, number>>;
}

function readPattern(raw: unknown, path: string): RawPattern {
  if (!isObject(raw)) throw new ProblemMatcherError(`Unexpected value for '${path}': expected an object.`);
  const indexes: Partial<Record<IndexField, number>> = {};
  for (const name of INDEX_FIELDS) {
    const value = toInt(field(raw, name), `${path}.${name}`);
    if (value !== undefined) indexes[name] = value;
  }
  return {
    source: toText(field(raw, 'regexp'), `${path}.regexp`) ?? '',
    loop: toBool(field(raw, 'loop'), `${path}.loop`),
    indexes,
  };
}

/** Checks one pattern in the runner's order and compiles it; `seen` tracks properties across patterns. */
function validatePattern(raw: RawPattern, first: boolean, last: boolean, seen: Set<IndexField>): PatternConfig {
  if (raw.loop && (first || !last)) throw new ProblemMatcherError("Only the last pattern in a multiline matcher may set 'loop'");
  if (raw.loop && raw.indexes.message === undefined) throw new ProblemMatcherError("The loop pattern must set 'message'");
  let regexp: RegExp;
  try {
    regexp = new RegExp(raw.source);
  } catch (error) {
    throw new ProblemMatcherError((error as Error).message);
  }
  const groups = groupCount(regexp);
  const pattern: { -readonly [K in keyof PatternConfig]: PatternConfig[K] } = { regexp, source: raw.source, loop: raw.loop };
  for (const name of INDEX_FIELDS) {
    const value = raw.indexes[name];
    if (value === undefined) continue;
    if (seen.has(name)) throw new ProblemMatcherError(`The property '${name}' is set twice`);
    if (value < 0 || value >= groups) throw new ProblemMatcherError(`The property '${name}' is set to ${value} which is out of range`);
    seen.add(name);
    pattern[name] = value;
  }
  return pattern;
}

interface RawMatcher {
  readonly owner: string;
  readonly severity: string | undefined;
  readonly fromPath: string;
  readonly patterns: readonly RawPattern[];
}

function readMatcher(raw: unknown, path: string): RawMatcher {
  if (!isObject(raw)) throw new ProblemMatcherError(`Unexpected value for '${path}': expected an object.`);
  const patterns = field(raw, 'pattern');
  if (patterns !== undefined && patterns !== null && !Array.isArray(patterns)) {
    throw new ProblemMatcherError(`Unexpected value for '${path}.pattern': expected an array.`);
  }
  return {
    owner: toText(field(raw, 'owner'), `${path}.owner`) ?? '',
    severity: toText(field(raw, 'severity'), `${path}.severity`),
    fromPath: toText(field(raw, 'fromPath'), `${path}.fromPath`) ?? '',
    patterns: ((patterns as unknown[] | null | undefined) ?? []).map((p, j) => readPattern(p, `${path}.pattern[${j}]`)),
  };
}

function validateMatcher(raw: RawMatcher): MatcherConfig {
  if (raw.owner === '') throw new ProblemMatcherError('Owner must not be empty');
  if (!['', 'ERROR', 'WARNING', 'NOTICE'].includes((raw.severity ?? '').toUpperCase())) {
    throw new ProblemMatcherError(`Matcher '${raw.owner}' contains unexpected default severity '${raw.severity ?? ''}'`);
  }
  if (raw.patterns.length === 0) throw new ProblemMatcherError(`Matcher '${raw.owner}' does not contain any patterns`);
  const seen = new Set<IndexField>();
  const patterns = raw.patterns.map((p, i) => validatePattern(p, i === 0, i === raw.patterns.length - 1, seen));
  if (!seen.has('message')) throw new ProblemMatcherError("At least one pattern must set 'message'");
  return { owner: raw.owner, severity: raw.severity ?? '', fromPath: raw.fromPath, patterns };
}

function parseDocument(json: string, source: string | undefined): unknown[] {
  let document: unknown;
  try {
    document = JSON.parse(stripJsonExtensions(json.replace(/^\uFEFF/, '')));
  } catch (error) {
    throw new ProblemMatcherError(`Invalid problem matcher file: ${(error as Error).message}`, source);
  }
  if (!isObject(document)) throw new ProblemMatcherError('Invalid problem matcher file: expected a JSON object.', source);
  const list = field(document, 'problemMatcher');
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ProblemMatcherError("Unexpected value for 'problemMatcher': expected an array.", source);
  return list;
}

/** Reads and validates a file's matchers. An absent or empty `problemMatcher` list gives []. */
export function readMatcherFile(json: string, source?: string): MatcherConfig[] {
  const list = parseDocument(json, source);
  try {
    // Like the runner: the whole file is read first, then each matcher is validated in order.
    const raws = list.map((raw, i) => readMatcher(raw, `problemMatcher[${i}]`));
    const owners = new Set<string>();
    return raws.map((raw) => {
      const matcher = validateMatcher(raw);
      const key = matcher.owner.toLowerCase();
      if (owners.has(key)) throw new ProblemMatcherError(`Duplicate owner name '${matcher.owner}'`);
      owners.add(key);
      return matcher;
    });
  } catch (error) {
    if (error instanceof ProblemMatcherError && error.source === undefined && source !== undefined) {
      throw new ProblemMatcherError(error.message, source);
    }
    throw error;
  }
}

/** The owners a file names, without validating it (what `remove-matcher` with a file uses). */
export function readMatcherOwners(json: string, source?: string): string[] {
  return parseDocument(json, source).map((raw) => (isObject(raw) ? (toText(field(raw, 'owner'), 'owner') ?? '') : ''));
}
