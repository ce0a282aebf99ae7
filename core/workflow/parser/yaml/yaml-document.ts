/**
 * Parses one YAML document the way GitHub's reader tolerates it: everything is read as text
 * (typing happens in core-schema.ts), keys may repeat (the template reader reports duplicates
 * case-insensitively), and `yaml`'s strictness is relaxed where GitHub's reader is lenient:
 * `strict: false` accepts a comment glued to a flow collection (`[one]#, two`), and under-indented
 * quoted scalars are repaired (lenient-source.ts).
 */
import { LineCounter, parseDocument } from 'yaml';
import type { Document, YAMLError } from 'yaml';
import { reindentQuotedContinuation } from './lenient-source.js';

export interface ParsedYaml {
  readonly document: Document.Parsed;
  readonly lineCounter: LineCounter;
  readonly source: string;
}

const MAX_REPAIRS = 20;

export function parseYaml(content: string): ParsedYaml {
  let parsed = parseOnce(content);
  for (let attempt = 0; attempt < MAX_REPAIRS && parsed.document.errors.length > 0; attempt++) {
    const repaired = repair(parsed.source, parsed.document.errors);
    if (repaired === undefined) break;
    const next = parseOnce(repaired);
    if (next.document.errors.length >= parsed.document.errors.length) break;
    parsed = next;
  }
  return parsed;
}

function parseOnce(source: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(source, {
    lineCounter,
    keepSourceTokens: true,
    schema: 'failsafe',
    strict: false,
    uniqueKeys: false,
  });
  return { document, lineCounter, source };
}

function repair(source: string, errors: readonly YAMLError[]): string | undefined {
  for (const error of errors) {
    const quote = /^Missing closing (["'])quote/.exec(error.message)?.[1];
    if (error.code !== 'MISSING_CHAR' || (quote !== '"' && quote !== "'")) continue;
    const repaired = reindentQuotedContinuation(source, error.pos[0], quote);
    if (repaired !== undefined) return repaired;
  }
  return undefined;
}
