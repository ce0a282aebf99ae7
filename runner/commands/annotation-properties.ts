/**
 * The `file`, `line`, `endLine`, `col`, `endColumn` and `title` properties of `::error`,
 * `::warning` and `::notice`, checked and repaired as the runner does before it records the
 * issue: an `endLine` alone becomes the line, columns need a line, columns are dropped across
 * several lines, and an end before its start drops the pair. Each repair is a debug message.
 */
import { posix, win32 } from 'node:path';
import type { AnnotationEffect, AnnotationLevel } from './command-effects.js';

/** .NET's `int.TryParse` (NumberStyles.Integer): white space around, one sign, 32-bit range. */
export function parseDotnetInt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^[\s]*([+-]?\d+)[\s]*$/.exec(text);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
}

/** Relative to the workspace when the file is inside it, with `/` separators; the runner's MakeRelative. */
export function makeRelative(file: string, workspace: string, platform: NodeJS.Platform): string {
  const windows = platform === 'win32';
  const sep = windows ? '\\' : '/';
  const normalize = (p: string): string => (windows ? p.replaceAll('/', '\\') : p);
  const path = normalize(file);
  const folder = normalize(workspace);
  const starts = windows ? path.toLowerCase().startsWith(folder.toLowerCase()) : path.startsWith(folder);
  if (!starts) return file;
  if (path.length === folder.length) return '';
  if (folder.endsWith(sep)) return path.slice(folder.length);
  if (path[folder.length] === sep) return path.slice(folder.length + 1);
  return file;
}

export interface AnnotationContext {
  readonly workspace?: string | undefined;
  readonly platform: NodeJS.Platform;
}

export interface BuiltAnnotation {
  readonly annotation: AnnotationEffect;
  readonly debug: readonly string[];
}

export function buildAnnotation(
  command: string,
  level: AnnotationLevel,
  message: string,
  input: ReadonlyMap<string, string>,
  context: AnnotationContext,
): BuiltAnnotation {
  const props = new Map(input);
  const debug: string[] = [];
  const invalid = (text: string): void => {
    debug.push(`Invalid ${command} command value. ${text}`);
  };

  let line = props.get('line');
  const endLine = props.get('endline');
  const column = props.get('col');
  const endColumn = props.get('endcolumn');
  const lineNumber = parseDotnetInt(line);
  const endLineNumber = parseDotnetInt(endLine);
  const columnNumber = parseDotnetInt(column);
  const endColumnNumber = parseDotnetInt(endColumn);
  let hasLine = lineNumber !== undefined;
  const hasEndLine = endLineNumber !== undefined;
  let hasColumn = columnNumber !== undefined;
  const hasEndColumn = endColumnNumber !== undefined;
  const hasAnyColumn = hasColumn || hasEndColumn;

  if (hasEndLine && !hasLine) {
    invalid("'endLine' can only be set if 'line' is provided");
    props.set('line', endLine ?? '');
    line = endLine;
    hasLine = true;
  }
  if (hasEndColumn && !hasColumn) {
    invalid("'endColumn' can only be set if 'col' is provided");
    props.set('col', endColumn ?? '');
    hasColumn = true;
  }
  if (!hasLine && hasAnyColumn) {
    invalid("'col' and 'endColumn' can only be set if 'line' value is provided.");
    props.delete('col');
    props.delete('endcolumn');
  }
  if (hasEndLine && line !== endLine && hasAnyColumn) {
    invalid("'col' and 'endColumn' cannot be set if 'line' and 'endLine' are different values.");
    props.delete('col');
    props.delete('endcolumn');
  }
  // The runner compares against the numbers parsed before the repairs (0 when absent).
  if (hasLine && hasEndLine && (endLineNumber ?? 0) < (lineNumber ?? 0)) {
    invalid("'endLine' cannot be less than 'line'.");
    props.delete('line');
    props.delete('endline');
  }
  if (hasColumn && hasEndColumn && (endColumnNumber ?? 0) < (columnNumber ?? 0)) {
    invalid("'endColumn' cannot be less than 'col'.");
    props.delete('col');
    props.delete('endcolumn');
  }

  let file = props.get('file');
  if (file !== undefined && file !== '' && context.workspace) {
    const relative = makeRelative(file, context.workspace, context.platform);
    if (relative !== file && relative !== '') {
      file = relative.split(context.platform === 'win32' ? win32.sep : posix.sep).join('/');
    }
  }

  const annotation: { -readonly [K in keyof AnnotationEffect]: AnnotationEffect[K] } = { kind: 'annotation', level, message };
  if (file !== undefined && file !== '') annotation.file = file;
  const fields: ReadonlyArray<readonly ['line' | 'col' | 'endLine' | 'endColumn', string]> = [
    ['line', 'line'],
    ['col', 'col'],
    ['endLine', 'endline'],
    ['endColumn', 'endcolumn'],
  ];
  for (const [field, key] of fields) {
    const value = parseDotnetInt(props.get(key));
    if (value !== undefined) annotation[field] = value;
  }
  const title = props.get('title');
  if (title !== undefined && title !== '') annotation.title = title;
  return { annotation, debug };
}
