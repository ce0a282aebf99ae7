/**
 * Flattens a parsed YAML document into the event stream GitHub's reader walks (scalar,
 * sequence/mapping start and end), with GitHub's positions: a node starts at its tag or anchor,
 * not at its value. Anchors and aliases are either expanded (allowed) or kept as marks the
 * reader refuses when it reaches them, so errors before them still come first.
 */
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Node, Pair, Scalar } from 'yaml';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import type { ScalarNode, ScalarStyle } from './core-schema.js';
import type { ParsedYaml } from './yaml-document.js';

export type YamlEvent =
  | { readonly kind: 'scalar'; readonly node: ScalarNode; readonly anchor: string | undefined }
  | { readonly kind: 'sequence-start' | 'mapping-start'; readonly range: TokenRange; readonly anchor: string | undefined }
  | { readonly kind: 'sequence-end' | 'mapping-end' }
  | { readonly kind: 'failure'; readonly message: string };

/** GitHub's cap on nodes visited when anchors are allowed, which bounds what aliases expand to. */
const MAX_YAML_NODES = 50000;

const STYLES: Record<string, ScalarStyle> = {
  PLAIN: 'Plain',
  QUOTE_SINGLE: 'SingleQuoted',
  QUOTE_DOUBLE: 'DoubleQuoted',
  BLOCK_LITERAL: 'Literal',
  BLOCK_FOLDED: 'Folded',
};

export function toEvents(parsed: ParsedYaml, allowAnchors: boolean): YamlEvent[] {
  const events: YamlEvent[] = [];
  const { document, lineCounter, source } = parsed;

  const position = (offset: number): { line: number; column: number } => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const rangeOf = (start: number, end: number): TokenRange => ({ start: position(start), end: position(end) });
  let lastEnd = position(0);

  const scalar = (node: Scalar, anchor: string | undefined): void => {
    const [valueStart = 0, valueEnd = valueStart] = node.range ?? [];
    const start = node.tag !== undefined || node.anchor !== undefined ? propertiesStart(source, valueStart) : valueStart;
    const style = STYLES[node.type ?? 'PLAIN'] ?? 'Plain';
    const srcToken = node.srcToken as { source?: string; type?: string; props?: { type: string; source: string }[] } | undefined;
    const header = srcToken?.type === 'block-scalar' ? srcToken.props?.find((p) => p.type === 'block-scalar-header')?.source : undefined;
    let value = node.value === null || node.value === undefined ? '' : String(node.value);
    if ((style === 'Literal' || style === 'Folded') && endsWithoutLineBreak(source, valueStart, valueEnd)) {
      value = value.replace(/\n$/, '');
    }
    const at = position(start);
    lastEnd = position(valueEnd);
    events.push({
      kind: 'scalar',
      anchor,
      node: {
        value,
        style,
        tag: node.tag,
        line: at.line,
        column: at.column,
        range: rangeOf(start, valueEnd),
        source: srcToken?.source,
        blockScalarHeader: header,
      },
    });
  };

  const walk = (node: Node | Pair | null | undefined, expanding: ReadonlySet<Node>): boolean => {
    if (allowAnchors && events.length > MAX_YAML_NODES) {
      events.push({ kind: 'failure', message: 'Maximum YAML nodes exceeded' });
      return false;
    }
    if (node === null || node === undefined) {
      // A key or value left out (`? :`): a null where the previous scalar ended.
      const range = { start: lastEnd, end: lastEnd };
      const empty = { value: '', style: 'Plain', tag: undefined, ...lastEnd, range, source: undefined, blockScalarHeader: undefined } as const;
      events.push({ kind: 'scalar', anchor: undefined, node: empty });
      return true;
    }
    if (isPair(node)) return walk(node.key as Node | null, expanding) && walk(node.value as Node | null, expanding);
    if (isAlias(node)) {
      if (!allowAnchors) {
        events.push({ kind: 'failure', message: 'Unexpected parsing event type: AnchorAlias' });
        return false;
      }
      const target = node.resolve(document);
      if (target === undefined || expanding.has(target)) return true;
      return walk(target, new Set([...expanding, target]));
    }
    const anchor = allowAnchors ? undefined : node.anchor;
    if (isScalar(node)) {
      scalar(node, anchor);
      return true;
    }
    if (isMap(node) || isSeq(node)) {
      const [start = 0, end = start] = node.range ?? [];
      const kind = isMap(node) ? 'mapping' : 'sequence';
      events.push({ kind: `${kind}-start`, range: rangeOf(start, end), anchor });
      for (const item of node.items as (Node | Pair)[]) {
        if (!walk(item, expanding)) return false;
      }
      events.push({ kind: `${kind}-end` });
      return true;
    }
    return true;
  };

  if (document.contents !== null) walk(document.contents, new Set());
  return events;
}

/** Where a node's tag/anchor begins: walk back over `!tag` / `&anchor` words on the same line. */
function propertiesStart(source: string, valueStart: number): number {
  let start = valueStart;
  let i = valueStart - 1;
  for (;;) {
    while (i >= 0 && (source[i] === ' ' || source[i] === '\t')) i--;
    let j = i;
    while (j >= 0 && !/\s/.test(source[j] ?? ' ')) j--;
    const first = source[j + 1];
    if (j === i || (first !== '!' && first !== '&')) return start;
    start = j + 1;
    i = j;
  }
}

/**
 * Fix "yaml-block-scalar-at-eof": a `|` / `>` scalar that ends the file without a final line
 * break has no trailing newline in GitHub's reader (YAML clips the final break only if there is
 * one); the `yaml` package adds one.
 */
function endsWithoutLineBreak(source: string, start: number, end: number): boolean {
  return end >= source.trimEnd().length && !/\n[ \t]*$/.test(source.slice(start, end));
}
