/**
 * An issue as a run-service annotation (§4.7), after the runner's IssueExtensions.ToAnnotation:
 * error → failure, warning → warning, notice → notice; an issue without a message is none; the
 * end line and column default to the start; without a file and a line, the log line number
 * stands in for the line.
 */
import type { AnnotationLevelName, RunServiceAnnotation } from '../../core/protocol/index.js';
import type { IssueType, RecordIssue } from './reporter-types.js';

const LEVELS: Readonly<Record<IssueType, AnnotationLevelName>> = { error: 'failure', warning: 'warning', notice: 'notice' };

function numberOf(issue: RecordIssue, key: string): number | undefined {
  const text = issue.data[key];
  if (text === undefined || !/^\s*[+-]?\d+\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && Math.abs(value) <= 2_147_483_647 ? value : undefined;
}

export function toAnnotation(issue: RecordIssue): RunServiceAnnotation | undefined {
  const message = issue.message.trim() === '' ? issue.data['message'] : issue.message;
  if (message === undefined || message.trim() === '') return undefined;
  const file = issue.data['file'];
  const path = file === undefined || file.trim() === '' ? undefined : file;
  let startLine = numberOf(issue, 'line') ?? 0;
  let endLine = numberOf(issue, 'endLine') ?? startLine;
  const startColumn = numberOf(issue, 'col') ?? 0;
  const endColumn = numberOf(issue, 'endColumn') ?? startColumn;
  const logLine = numberOf(issue, 'logFileLineNumber') ?? 0;
  if (path === undefined && startLine === 0 && logLine !== 0) {
    startLine = logLine;
    endLine = logLine;
  }
  const title = issue.data['title'];
  return {
    level: LEVELS[issue.type],
    message,
    ...(title === undefined ? {} : { title }),
    ...(path === undefined ? {} : { path }),
    startLine,
    endLine,
    startColumn,
    endColumn,
    stepNumber: numberOf(issue, 'stepNumber') ?? 0,
    isInfrastructureIssue: issue.isInfrastructureIssue ?? false,
  };
}
