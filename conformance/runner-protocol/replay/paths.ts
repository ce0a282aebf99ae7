/**
 * Paths into captured values: `body.sessionId`, `message.steps[0].id`,
 * `message.resources.endpoints[name=SystemVssConnection].url`, `message.variables["system.github.token"].value`.
 * Member names are looked up exactly, then case-insensitively, and `[key=value]` compares values
 * case-insensitively: the runner reads property names and endpoint names that way.
 */
import type { JsonValue } from './scenario-types.js';

export type PathSegment =
  | { readonly kind: 'member'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'find'; readonly key: string; readonly value: string };

const SEGMENT = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]*)"\]|\[([\w$-]+)=([^\]]*)\])/;

export function parsePath(text: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let rest = text.trim();
  if (rest === '') throw new Error('an empty path');
  while (rest !== '') {
    const match = SEGMENT.exec(rest);
    if (!match) throw new Error(`cannot read the path '${text}' at '${rest}'`);
    if (match[1] !== undefined) segments.push({ kind: 'member', name: match[1] });
    else if (match[2] !== undefined) segments.push({ kind: 'index', index: Number(match[2]) });
    else if (match[3] !== undefined) segments.push({ kind: 'member', name: match[3] });
    else segments.push({ kind: 'find', key: match[4] ?? '', value: match[5] ?? '' });
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/** The first member name of a path (the variable it reads). */
export function pathRoot(text: string): string {
  const [first] = parsePath(text);
  if (first?.kind !== 'member') throw new Error(`the path '${text}' must start with a name`);
  return first.name;
}

export function memberOf(value: JsonValue | undefined, name: string): JsonValue | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Object.hasOwn(value, name)) return value[name];
  const lower = name.toLowerCase();
  const key = Object.keys(value).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : value[key];
}

function step(value: JsonValue | undefined, segment: PathSegment): JsonValue | undefined {
  switch (segment.kind) {
    case 'member':
      return memberOf(value, segment.name);
    case 'index':
      return Array.isArray(value) ? value[segment.index] : undefined;
    case 'find': {
      if (!Array.isArray(value)) return undefined;
      const wanted = segment.value.toLowerCase();
      return value.find((item) => {
        const found = memberOf(item, segment.key);
        return found !== undefined && found !== null && String(found).toLowerCase() === wanted;
      });
    }
  }
}

/** The value at a path, or undefined when any segment is missing. */
export function readPath(root: JsonValue | undefined, text: string): JsonValue | undefined {
  let value = root;
  for (const segment of parsePath(text)) {
    value = step(value, segment);
    if (value === undefined) return undefined;
  }
  return value;
}
