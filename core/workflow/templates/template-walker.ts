/**
 * The walk of template evaluation: a token tree and its schema definition side by side, as the
 * runner's template evaluator does it.
 *
 * - A whole-value `${{ }}` becomes the token of its result (a mapping for an object, a number
 *   for a number), then checked against the position's definition; where the definition wants
 *   a string, a number or boolean becomes its string (`1E+20`, `true`).
 * - A `${{ }}` sequence item that yields an array contributes its items to the sequence.
 * - A `${{ }}` mapping key yields the key's text; `${{ insert }}` as a key merges the mapping
 *   its value is (or evaluates to) into the enclosing mapping.
 * - Keys are checked as the parser checks them: unknown (`Unexpected value 'x'`), repeated
 *   (`'x' is already defined`, case-insensitively), required (`Required property is missing: x`).
 * Problems are collected, not thrown, so one evaluation reports all of them (up to 10).
 */
import { DefinitionInfo } from '@actions/workflow-parser/templates/schema/definition-info';
import { DefinitionType } from '@actions/workflow-parser/templates/schema/definition-type';
import type { MappingDefinition } from '@actions/workflow-parser/templates/schema/mapping-definition';
import type { SequenceDefinition } from '@actions/workflow-parser/templates/schema/sequence-definition';
import { MappingToken, SequenceToken, StringToken } from '@actions/workflow-parser/templates/tokens/index';
import type { BasicExpressionToken } from '@actions/workflow-parser/templates/tokens/basic-expression-token';
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/literal-token';
import type { ScalarToken } from '@actions/workflow-parser/templates/tokens/scalar-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import { toExpressionString } from '../expressions/index.js';
import type { TemplateErrorList } from './template-errors.js';
import type { TemplateExpressions } from './template-expressions.js';
import { literalText, valueToToken } from './token-values.js';

type Definition = DefinitionInfo | undefined;

interface MappingState {
  /** The mapping definitions still possible, narrowed by the keys seen (a one-of). */
  readonly candidates: MappingDefinition[];
  readonly keys: Set<string>;
  hasExpressionKey: boolean;
}

export class TemplateWalker {
  readonly #expressions: TemplateExpressions;
  readonly #errors: TemplateErrorList;

  constructor(expressions: TemplateExpressions, errors: TemplateErrorList) {
    this.#expressions = expressions;
    this.#errors = errors;
  }

  walk(token: TemplateToken, definition: Definition): TemplateToken {
    switch (token.templateTokenType) {
      case TokenType.BasicExpression:
        return this.#wholeValue(token as BasicExpressionToken, definition);
      case TokenType.InsertExpression:
        this.#errors.add(token, "The expression directive 'insert' is not supported in this context");
        return new StringToken(token.file, token.range, '${{ insert }}', undefined);
      case TokenType.Sequence:
        return this.#sequence(token as SequenceToken, definition);
      case TokenType.Mapping:
        return this.#mapping(token as MappingToken, definition);
      default:
        return this.#literal(token as LiteralToken, definition);
    }
  }

  #wholeValue(token: BasicExpressionToken, definition: Definition): TemplateToken {
    if (!this.#expressions.expands(definition)) return token;
    const outcome = this.#expressions.evaluate(token, definition);
    if (!outcome.ok) return new StringToken(token.file, token.range, '', undefined);
    return this.walk(valueToToken(outcome.value, token), definition);
  }

  #sequence(token: SequenceToken, definition: Definition): SequenceToken {
    const result = new SequenceToken(token.file, token.range, token.definitionInfo);
    let itemDefinition: Definition;
    if (definition !== undefined) {
      const sequence = definition.getDefinitionsOfType(DefinitionType.Sequence)[0] as SequenceDefinition | undefined;
      if (sequence === undefined) {
        this.#errors.add(token, 'A sequence was not expected');
        return result;
      }
      itemDefinition = new DefinitionInfo(definition, sequence.itemType);
    }
    for (const item of token) {
      if (item.templateTokenType !== TokenType.BasicExpression || !this.#expressions.expands(itemDefinition)) {
        result.add(this.walk(item, itemDefinition));
        continue;
      }
      const outcome = this.#expressions.evaluate(item as BasicExpressionToken, itemDefinition);
      if (!outcome.ok) continue;
      const values = Array.isArray(outcome.value) ? outcome.value : [outcome.value];
      for (const value of values) result.add(this.walk(valueToToken(value, item), itemDefinition));
    }
    return result;
  }

  #mapping(token: MappingToken, definition: Definition): MappingToken {
    const result = new MappingToken(token.file, token.range, token.definitionInfo);
    const candidates =
      definition === undefined ? [] : [...(definition.getDefinitionsOfType(DefinitionType.Mapping) as MappingDefinition[])];
    if (definition !== undefined && candidates.length === 0) {
      this.#errors.add(token, 'A mapping was not expected');
      return result;
    }
    const state: MappingState = { candidates, keys: new Set(), hasExpressionKey: false };
    this.#pairs(token, definition, state, result);
    if (definition === undefined) return result;
    if (candidates.length > 1) {
      this.#errors.add(
        token,
        `There's not enough info to determine what you meant. Add one of these properties: ${distinctProperties(candidates).join(', ')}`,
      );
    } else if (candidates.length === 1 && !state.hasExpressionKey) {
      for (const [name, property] of Object.entries(candidates[0]?.properties ?? {})) {
        if (property.required && !state.keys.has(name.toUpperCase())) {
          this.#errors.add(token, `Required property is missing: ${name}`);
        }
      }
    }
    return result;
  }

  #pairs(source: MappingToken, definition: Definition, state: MappingState, result: MappingToken): void {
    for (const { key, value } of source) {
      if (key.isExpression && !this.#expressions.expands(definition)) {
        // Left for later, like the runner leaves it: the value is read as anything.
        state.hasExpressionKey = true;
        result.add(key, this.walk(value, definition && new DefinitionInfo(definition, 'any')));
        continue;
      }
      if (key.templateTokenType === TokenType.InsertExpression) {
        const inserted = this.#insertion(value, definition);
        if (inserted !== undefined) this.#pairs(inserted, definition, state, result);
        continue;
      }
      const name = this.#keyText(key, definition);
      if (name === undefined) continue;
      const keyToken =
        key.templateTokenType === TokenType.String ? (key as StringToken) : new StringToken(key.file, key.range, name, undefined);
      if (state.keys.has(name.toUpperCase())) {
        this.#errors.add(keyToken, `'${name}' is already defined`);
        continue;
      }
      state.keys.add(name.toUpperCase());
      const valueDefinition = this.#valueDefinition(keyToken, name, definition, state);
      if (valueDefinition === null) continue;
      result.add(keyToken, this.walk(value, valueDefinition));
    }
  }

  /** The key's text; for a `${{ }}` key its result as a string. Undefined after an error. */
  #keyText(key: ScalarToken, definition: Definition): string | undefined {
    if (key.templateTokenType !== TokenType.BasicExpression) return literalText(key as LiteralToken);
    const outcome = this.#expressions.evaluate(key as BasicExpressionToken, definition);
    if (!outcome.ok) return undefined;
    const value = outcome.value;
    if (value !== null && typeof value === 'object') {
      this.#errors.add(key, 'Expected a string');
      return undefined;
    }
    return toExpressionString(value);
  }

  /** The definition of a key's value; null after an error (the pair is dropped). */
  #valueDefinition(key: StringToken, name: string, definition: Definition, state: MappingState): Definition | null {
    if (definition === undefined) return undefined;
    const property = matchProperty(state.candidates, name);
    if (property !== undefined) return new DefinitionInfo(definition, property);
    const loose = state.candidates[0];
    if (loose?.looseKeyType) {
      this.#literal(key, new DefinitionInfo(definition, loose.looseKeyType));
      return new DefinitionInfo(definition, loose.looseValueType);
    }
    this.#errors.add(key, `Unexpected value '${name}'`);
    return null;
  }

  /** The mapping an `${{ insert }}` merges: its value, or what the value's expression yields. */
  #insertion(value: TemplateToken, definition: Definition): MappingToken | undefined {
    if (value.templateTokenType === TokenType.Mapping) return value as MappingToken;
    if (value.templateTokenType !== TokenType.BasicExpression) {
      this.#errors.add(value, 'Expected a mapping');
      return undefined;
    }
    const outcome = this.#expressions.evaluate(value as BasicExpressionToken, definition);
    if (!outcome.ok) return undefined;
    const mapping = valueToToken(outcome.value, value);
    if (mapping.templateTokenType !== TokenType.Mapping) {
      this.#errors.add(value, 'Expected a mapping');
      return undefined;
    }
    return mapping as MappingToken;
  }

  #literal(literal: LiteralToken, definition: Definition): TemplateToken {
    if (definition === undefined) return literal;
    const scalars = definition.getScalarDefinitions();
    if (scalars.some((scalar) => scalar.isMatch(literal))) return literal;
    if (literal.templateTokenType !== TokenType.String) {
      const text = new StringToken(literal.file, literal.range, literalText(literal), undefined);
      if (scalars.some((scalar) => scalar.definitionType === DefinitionType.String && scalar.isMatch(text))) return text;
    }
    this.#errors.add(literal, `Unexpected value '${literalText(literal)}'`);
    return literal;
  }
}

/** The property's type among the candidates; narrows the candidates to those that have it. */
function matchProperty(candidates: MappingDefinition[], name: string): string | undefined {
  const having = candidates.filter((candidate) => candidate.properties[name] !== undefined);
  const type = having[0]?.properties[name]?.type;
  if (type !== undefined && having.length < candidates.length) candidates.splice(0, candidates.length, ...having);
  return type;
}

/** Properties that tell the candidates apart (present in exactly one), sorted. */
function distinctProperties(candidates: readonly MappingDefinition[]): string[] {
  const counts = new Map<string, number>();
  for (const candidate of candidates) {
    for (const name of Object.keys(candidate.properties)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].filter(([, count]) => count === 1).map(([name]) => name).sort();
}
