/**
 * The expressions of one template evaluation: which names a position allows (its schema
 * definition's accumulated `context` list), whether the position is evaluated now (partial
 * evaluation), and evaluating one `${{ }}` with its error recorded at the token.
 */
import type { DefinitionInfo } from '@actions/workflow-parser/templates/schema/definition-info';
import type { BasicExpressionToken } from '@actions/workflow-parser/templates/tokens/basic-expression-token';
import {
  evaluateExpression,
  ExpressionError,
  type ExpressionValue,
  type HashFilesPort,
  type PreparedContexts,
  type StatusContext,
} from '../expressions/index.js';
import { namesOf } from './field-contexts.js';
import type { TemplateErrorList } from './template-errors.js';

export interface TemplateExpressionSettings {
  readonly contexts: PreparedContexts;
  readonly errors: TemplateErrorList;
  readonly status?: StatusContext | undefined;
  readonly hashFiles?: HashFilesPort | undefined;
  readonly maxMemoryBytes?: number | undefined;
  readonly partial: boolean;
}

export type ExpressionOutcome = { readonly ok: true; readonly value: ExpressionValue } | { readonly ok: false };

const FUNCTION_ENTRY = /^([a-zA-Z0-9_]+)\(/;
const STATUS_FUNCTIONS = ['always', 'cancelled', 'failure', 'success'];

export class TemplateExpressions {
  readonly #settings: TemplateExpressionSettings;
  /** Lower-case context names and `name()` functions present now (for partial evaluation). */
  readonly #available: ReadonlySet<string>;

  constructor(settings: TemplateExpressionSettings) {
    this.#settings = settings;
    const available = new Set(settings.contexts.names.map((name) => name.toLowerCase()));
    if (settings.status) for (const name of STATUS_FUNCTIONS) available.add(`${name}()`);
    if (settings.hashFiles) available.add('hashfiles()');
    this.#available = available;
  }

  /**
   * Whether expressions at this position are evaluated now. Always, unless evaluating
   * partially: then only where every context and function the position allows is present,
   * the rule GitHub's server uses to evaluate what it can before the runner gets the rest.
   */
  expands(definition: DefinitionInfo | undefined): boolean {
    if (!this.#settings.partial || definition === undefined) return true;
    return definition.allowedContext.every((entry) => {
      const fn = FUNCTION_ENTRY.exec(entry);
      return this.#available.has(fn ? `${fn[1]?.toLowerCase()}()` : entry.toLowerCase());
    });
  }

  /** Evaluates one expression token; a failure is recorded at the token. */
  evaluate(token: BasicExpressionToken, definition: DefinitionInfo | undefined): ExpressionOutcome {
    const { contexts, status, hashFiles, maxMemoryBytes, errors } = this.#settings;
    if (definition !== undefined && definition.allowedContext.length === 0) {
      errors.add(token, 'A template expression is not allowed in this context');
      return { ok: false };
    }
    try {
      const value = evaluateExpression(token.expression, contexts, {
        ...(definition === undefined ? {} : { allowed: namesOf(definition.allowedContext) }),
        ...(status === undefined ? {} : { status }),
        ...(hashFiles === undefined ? {} : { hashFiles }),
        ...(maxMemoryBytes === undefined ? {} : { maxMemoryBytes }),
      });
      return { ok: true, value };
    } catch (error) {
      // Anything but an expression problem is a bug, not a template error.
      if (!(error instanceof ExpressionError)) throw error;
      errors.add(token, error);
      return { ok: false };
    }
  }
}
