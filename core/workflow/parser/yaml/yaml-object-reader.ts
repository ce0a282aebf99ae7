/**
 * The parser's ObjectReader over a YAML file, with GitHub's reader semantics (the parser's own
 * YamlObjectReader follows the `yaml` package instead). Errors are thrown when the template
 * reader reaches the offending node; it records them against the file, as GitHub does:
 * - fix "yaml-anchors": anchors are refused unless allowed (`Anchors are not currently supported.
 *   Remove the anchor 'x'`), aliases expanded when they are;
 * - fix "max-object-depth": more than `maxDepth` nested collections is `Maximum object depth
 *   exceeded` (the parser has no limit);
 * - scalars are typed by core-schema.ts.
 */
import { MappingToken, SequenceToken } from '@actions/workflow-parser/templates/tokens/index';
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ObjectReader } from '@actions/workflow-parser/templates/object-reader';
import { toLiteral } from './core-schema.js';
import type { ParsedYaml } from './yaml-document.js';
import { toEvents } from './yaml-events.js';
import type { YamlEvent } from './yaml-events.js';

export interface YamlReaderOptions {
  readonly allowAnchors: boolean;
  readonly maxDepth: number;
}

export class YamlObjectReader implements ObjectReader {
  readonly #fileId: number;
  readonly #events: YamlEvent[];
  readonly #maxDepth: number;
  #index = 0;
  #depth = 0;

  constructor(fileId: number, parsed: ParsedYaml, options: YamlReaderOptions) {
    this.#fileId = fileId;
    this.#events = toEvents(parsed, options.allowAnchors);
    this.#maxDepth = options.maxDepth;
  }

  validateStart(): void {
    this.#index = 0;
  }

  validateEnd(): void {
    if (this.#index !== this.#events.length) throw new Error('Expected end of reader');
  }

  allowLiteral(): LiteralToken | undefined {
    const event = this.#current();
    if (event?.kind !== 'scalar') return undefined;
    refuseAnchor(event.anchor);
    const token = toLiteral(this.#fileId, event.node);
    this.#index++;
    return token;
  }

  allowSequenceStart(): SequenceToken | undefined {
    const event = this.#current();
    if (event?.kind !== 'sequence-start') return undefined;
    this.#enter(event.anchor);
    return new SequenceToken(this.#fileId, event.range, undefined);
  }

  allowSequenceEnd(): boolean {
    return this.#leave('sequence-end');
  }

  allowMappingStart(): MappingToken | undefined {
    const event = this.#current();
    if (event?.kind !== 'mapping-start') return undefined;
    this.#enter(event.anchor);
    return new MappingToken(this.#fileId, event.range, undefined);
  }

  allowMappingEnd(): boolean {
    return this.#leave('mapping-end');
  }

  #current(): YamlEvent | undefined {
    const event = this.#events[this.#index];
    if (event?.kind === 'failure') throw new Error(event.message);
    return event;
  }

  #enter(anchor: string | undefined): void {
    refuseAnchor(anchor);
    if (this.#depth >= this.#maxDepth) throw new Error('Maximum object depth exceeded');
    this.#depth++;
    this.#index++;
  }

  #leave(kind: 'sequence-end' | 'mapping-end'): boolean {
    if (this.#current()?.kind !== kind) return false;
    this.#depth--;
    this.#index++;
    return true;
  }
}

function refuseAnchor(anchor: string | undefined): void {
  if (anchor !== undefined) throw new Error(`Anchors are not currently supported. Remove the anchor '${anchor}'`);
}
