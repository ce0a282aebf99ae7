/**
 * Evaluating an action manifest's tokens (core/workflow's template evaluation against the action
 * schema): input defaults, composite step fields and outputs, docker `args` and `env`. Each
 * position is named by its field (`runs.steps.env`, `outputs.<id>.value`, ...), which gives the
 * contexts it may read; problems are placed in the manifest file.
 */
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import {
  evaluateTemplate,
  readBoolean,
  readString,
  readStringMap,
  tokenToValue,
  toExpressionString,
  type ExpressionContexts,
  type HashFilesPort,
} from '../../core/workflow/index.js';
import { FOLLOW_SYMBOLIC_LINKS_OPTION, hashFilesSync } from '../shells/index.js';

export interface TemplateScope {
  /** The contexts as plain data (the handler context's, plus `inputs`, `steps`, ... of the action). */
  readonly contexts: Readonly<Record<string, unknown>>;
  /** The manifest's file table (token file ids → names). */
  readonly fileTable: readonly string[];
  /** `github.workspace`, where `hashFiles()` looks. */
  readonly workspace: string;
}

export function hashFilesPort(workspace: string): HashFilesPort {
  return {
    hash: (patterns, options) => hashFilesSync(workspace, options.followSymbolicLinks ? [FOLLOW_SYMBOLIC_LINKS_OPTION, ...patterns] : patterns),
  };
}

function evaluate(token: TemplateToken, field: string, scope: TemplateScope): TemplateToken {
  return evaluateTemplate(token, scope.contexts as ExpressionContexts, {
    field,
    schema: 'action',
    fileTable: scope.fileTable,
    hashFiles: hashFilesPort(scope.workspace),
  });
}

export function evaluateString(token: TemplateToken | undefined, field: string, description: string, scope: TemplateScope): string {
  if (token === undefined || token.templateTokenType === TokenType.Null) return '';
  const value = evaluate(token, field, scope);
  if (value.templateTokenType === TokenType.Null) return '';
  if (value.templateTokenType === TokenType.Boolean || value.templateTokenType === TokenType.Number) {
    return toExpressionString(tokenToValue(value));
  }
  return readString(value, description, { fileTable: scope.fileTable });
}

export function evaluateMap(token: TemplateToken | undefined, field: string, description: string, scope: TemplateScope): Record<string, string> {
  if (token === undefined || token.templateTokenType === TokenType.Null) return {};
  return readStringMap(evaluate(token, field, scope), description, { fileTable: scope.fileTable });
}

export function evaluateBoolean(token: TemplateToken | undefined, field: string, description: string, scope: TemplateScope): boolean {
  if (token === undefined || token.templateTokenType === TokenType.Null) return false;
  return readBoolean(evaluate(token, field, scope), description, { fileTable: scope.fileTable });
}

/** A sequence of scalars as strings (docker `args`). */
export function evaluateStrings(token: TemplateToken | undefined, field: string, scope: TemplateScope): string[] {
  if (token === undefined || token.templateTokenType === TokenType.Null) return [];
  const value = tokenToValue(evaluate(token, field, scope), field);
  if (!Array.isArray(value)) return [];
  return value.map((item) => (item === null ? '' : typeof item === 'object' ? JSON.stringify(item) : toExpressionString(item)));
}
