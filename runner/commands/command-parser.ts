/**
 * Parsing one output line into a workflow command, as the official runner does: the current form
 * `::name k=v,k2=v2::data` (the line may start with white space) and the legacy form
 * `##[name k=v;k2=v2;]data` (found anywhere in the line). Only registered names parse; a line
 * naming anything else is ordinary output.
 */

/** A parsed command: its name as written, its properties (keys compared case-insensitively), its data. */
export interface ParsedCommand {
  readonly name: string;
  /** Keys lower-cased; a later duplicate wins, as in the runner's case-insensitive dictionary. */
  readonly properties: ReadonlyMap<string, string>;
  readonly data: string;
}

const COMMAND_KEY = '::';
const LEGACY_PREFIX = '##[';

// The runner unescapes by replacing each token in turn, in this order: `%25` last, so `%250A`
// becomes the text `%0A` and is not decoded twice.
const DATA_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
];
const PROPERTY_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
];
const LEGACY_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
];

function unescape(text: string, mappings: ReadonlyArray<readonly [string, string]>): string {
  let result = text;
  for (const [escaped, plain] of mappings) result = result.split(escaped).join(plain);
  return result;
}

export function unescapeData(text: string): string {
  return unescape(text, DATA_ESCAPES);
}

export function unescapeProperty(text: string): string {
  return unescape(text, PROPERTY_ESCAPES);
}

/** The inverse of unescapeData, for producing command lines (tests, echo of generated commands). */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** The inverse of unescapeProperty. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * `key=value` split the way .NET's `Split('=', 2, RemoveEmptyEntries)` splits: empty pieces
 * before the key and right after the first separator are dropped, so `=k=v` and `k==v` both give
 * `k` → `v`, and `k=` gives no pair at all.
 */
export function splitPair(text: string): readonly [string, string] | undefined {
  const parts = text.split('=');
  let keyIndex = 0;
  while (keyIndex < parts.length - 1 && parts[keyIndex] === '') keyIndex++;
  if (keyIndex >= parts.length - 1) return undefined;
  let valueIndex = keyIndex + 1;
  while (valueIndex < parts.length - 1 && parts[valueIndex] === '') valueIndex++;
  const value = parts.slice(valueIndex).join('=');
  if (value === '') return undefined;
  return [parts[keyIndex] ?? '', value];
}

function parseProperties(text: string, separator: string, decode: (value: string) => string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const piece of text.split(separator)) {
    if (piece === '') continue;
    const pair = splitPair(piece);
    if (pair) properties.set(pair[0].toLowerCase(), decode(pair[1]));
  }
  return properties;
}

function splitNameAndProperties(info: string): { name: string; rest: string | undefined } {
  const space = info.indexOf(' ');
  if (space < 0) return { name: info, rest: undefined };
  return { name: info.slice(0, space), rest: space > 0 ? info.slice(space + 1) : undefined };
}

/** `::name k=v::data`; `isRegistered` receives the name as written. */
export function parseCommand(line: string, isRegistered: (name: string) => boolean): ParsedCommand | undefined {
  const message = line.trimStart();
  if (!message.startsWith(COMMAND_KEY)) return undefined;
  const end = message.indexOf(COMMAND_KEY, COMMAND_KEY.length);
  if (end < 0) return undefined;
  const { name, rest } = splitNameAndProperties(message.slice(COMMAND_KEY.length, end));
  if (name === '' || !isRegistered(name)) return undefined;
  const properties = rest === undefined ? new Map<string, string>() : parseProperties(rest.trim(), ',', unescapeProperty);
  return { name, properties, data: unescapeData(message.slice(end + COMMAND_KEY.length)) };
}

/** `##[name k=v;]data`, anywhere in the line. */
export function parseLegacyCommand(line: string, isRegistered: (name: string) => boolean): ParsedCommand | undefined {
  const prefix = line.indexOf(LEGACY_PREFIX);
  if (prefix < 0) return undefined;
  const bracket = line.indexOf(']', prefix);
  if (bracket < 0) return undefined;
  const { name, rest } = splitNameAndProperties(line.slice(prefix + LEGACY_PREFIX.length, bracket));
  if (name === '' || !isRegistered(name)) return undefined;
  const decode = (value: string): string => unescape(value, LEGACY_ESCAPES);
  const properties = rest === undefined ? new Map<string, string>() : parseProperties(rest, ';', decode);
  return { name, properties, data: decode(line.slice(bracket + 1)) };
}

/** Either form, the current one first (the runner tries them in that order). */
export function parseAnyCommand(line: string, isRegistered: (name: string) => boolean): ParsedCommand | undefined {
  if (line === '') return undefined;
  return parseCommand(line, isRegistered) ?? parseLegacyCommand(line, isRegistered);
}
