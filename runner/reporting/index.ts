// runner/reporting: where the worker reports a job (legacy VSS routes or results + run service),
// with masking at the sink. The worker sees only the Reporter interface.
export { createReporter } from './create-reporter.js';
export type { ReporterOptions, ReportingMode } from './create-reporter.js';
export { LogMasker } from './log-masker.js';
export { LOG_PAGE_BYTES, logTimestamp } from './log-book.js';
export { toAnnotation } from './annotations.js';
export { DEFAULT_REPORTER_TIMINGS } from './reporter-types.js';
export type {
  DiagnosticLog,
  IssueType,
  JobCompletion,
  RecordIssue,
  RecordState,
  Reporter,
  ReporterTimings,
  TimelineRecord,
} from './reporter-types.js';
export type { FetchLike } from './http.js';
