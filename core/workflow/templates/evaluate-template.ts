/**
 * Evaluating a template token tree (the parser's raw tokens of a workflow or action field)
 * against contexts: the public entry points.
 *
 * Which names an expression may use and how results are checked come from the schema
 * definition of the position: the token's own (tokens read by the parser carry it), or the one
 * named by `field` (a documentation path such as `jobs.<job_id>.runs-on`) or `definition` (a
 * schema definition name). Without any, the tree is evaluated untyped: every given context is
 * allowed and results are taken as they are.
 */
import { DefinitionInfo } from '@actions/workflow-parser/templates/schema/definition-info';
import { TemplateTokenError, type TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import {
  prepareContexts,
  type ExpressionContexts,
  type ExpressionValue,
  type HashFilesOptions,
  type HashFilesPort,
  type PreparedContexts,
  type StatusContext,
} from '../expressions/index.js';
import { fieldDefinition } from './field-contexts.js';
import { parserSchema, type ParserSchemaKind } from './parser-schema.js';
import { TemplateErrorList } from './template-errors.js';
import { TemplateExpressions } from './template-expressions.js';
import { TemplateWalker } from './template-walker.js';
import { tokenToValue } from './token-values.js';

export interface EvaluateTemplateOptions {
  /** The field the token is the value of, as the docs name it (`jobs.<job_id>.steps.with`). */
  readonly field?: string;
  /** Or the schema definition of the value (`step-with`, `string-steps-context`). */
  readonly definition?: string;
  /** Which schema `field` and `definition` refer to; default the workflow schema. */
  readonly schema?: ParserSchemaKind;
  /** Enables the status functions where the position allows them. */
  readonly status?: StatusContext;
  /** Enables `hashFiles()` where the position allows it (a promise needs the async variant). */
  readonly hashFiles?: HashFilesPort;
  /** File names by token file id (1-based), for error locations. */
  readonly fileTable?: readonly string[];
  /**
   * Evaluate only the positions whose every allowed context (and function) is given, leaving
   * the other expressions in place: what GitHub's server does before handing a job to the
   * runner. Default false: every expression is evaluated, allowed contexts that were not given
   * read as null (the runner's behaviour).
   */
  readonly partial?: boolean;
  /** Memory budget of each expression evaluation (the expression layer's default otherwise). */
  readonly maxMemoryBytes?: number;
}

type Contexts = ExpressionContexts | PreparedContexts;

/** Passes of the async evaluation before giving up on a port that keeps being asked new things. */
const MAX_ASYNC_PASSES = 16;

/**
 * The evaluated token tree. Throws a TemplateEvaluationError listing every problem (with the
 * runner's wording and locations) when there was any.
 */
export function evaluateTemplate(token: TemplateToken, contexts: Contexts, options: EvaluateTemplateOptions = {}): TemplateToken {
  const errors = new TemplateErrorList(options.fileTable);
  const expressions = new TemplateExpressions({
    contexts: prepareContexts(contexts),
    errors,
    status: options.status,
    hashFiles: options.hashFiles,
    maxMemoryBytes: options.maxMemoryBytes,
    partial: options.partial ?? false,
  });
  const result = new TemplateWalker(expressions, errors).walk(token, rootDefinition(token, options));
  errors.check();
  return result;
}

/** `evaluateTemplate` whose `hashFiles` port may answer with promises. */
export async function evaluateTemplateAsync(
  token: TemplateToken,
  contexts: Contexts,
  options: EvaluateTemplateOptions = {},
): Promise<TemplateToken> {
  const port = options.hashFiles;
  if (port === undefined) return evaluateTemplate(token, contexts, options);
  const prepared = prepareContexts(contexts);
  const known = new Map<string, string>();
  // Each pass evaluates with the hashes known so far; unknown ones are asked for and the
  // evaluation repeated once they arrive. A result only counts from a pass that asked nothing.
  for (let pass = 0; pass < MAX_ASYNC_PASSES; pass++) {
    const pending = new Map<string, Promise<string>>();
    const recording: HashFilesPort = {
      hash(patterns: readonly string[], hashOptions: HashFilesOptions): string {
        const key = JSON.stringify([hashOptions.followSymbolicLinks, patterns]);
        const hash = known.get(key);
        if (hash !== undefined) return hash;
        const answer = port.hash(patterns, hashOptions);
        if (typeof answer === 'string') {
          known.set(key, answer);
          return answer;
        }
        pending.set(key, answer);
        return '';
      },
    };
    try {
      const result = evaluateTemplate(token, prepared, { ...options, hashFiles: recording });
      if (pending.size === 0) return result;
    } catch (error) {
      if (pending.size === 0) throw error;
    }
    await Promise.all([...pending].map(async ([key, hash]) => known.set(key, await hash)));
  }
  throw new Error(`hashFiles kept asking for new hashes after ${MAX_ASYNC_PASSES} passes`);
}

/**
 * The evaluated tree as plain data (objects, arrays, strings, numbers, booleans, null). An
 * expression left for later by a partial evaluation cannot be plain data: that is an error.
 */
export function evaluateTemplateValue(
  token: TemplateToken,
  contexts: Contexts,
  options: EvaluateTemplateOptions = {},
): ExpressionValue {
  const evaluated = evaluateTemplate(token, contexts, options);
  try {
    return tokenToValue(evaluated);
  } catch (error) {
    if (!(error instanceof TemplateTokenError)) throw error;
    const errors = new TemplateErrorList(options.fileTable);
    errors.add(error.token, error);
    throw errors.toError() ?? error;
  }
}

function rootDefinition(token: TemplateToken, options: EvaluateTemplateOptions): DefinitionInfo | undefined {
  const kind = options.schema ?? 'workflow';
  if (options.definition !== undefined) return new DefinitionInfo(parserSchema(kind), options.definition);
  if (options.field !== undefined) return fieldDefinition(options.field, kind).definition;
  return token.definitionInfo;
}
