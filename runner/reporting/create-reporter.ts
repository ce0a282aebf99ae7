/**
 * The reporter for a job: legacy VSS routes for a `PipelineAgentJobRequest`, results service and
 * run service for a `RunnerJobRequest` (§4.1).
 */
import type { FetchLike, HttpOptions } from './http.js';
import { LegacyReporter } from './legacy/legacy-reporter.js';
import type { LogMasker } from './log-masker.js';
import { DEFAULT_REPORTER_TIMINGS, type DiagnosticLog, type Reporter, type ReporterTimings } from './reporter-types.js';
import { ResultsReporter } from './results/results-reporter.js';

export type ReportingMode = 'legacy' | 'run-service';

export interface ReporterOptions {
  readonly mode: ReportingMode;
  /** The SystemVssConnection: its URL and the job access token. */
  readonly connection: { readonly url: string; readonly token: string };
  readonly plan: { readonly scopeIdentifier: string; readonly planType: string; readonly planId: string; readonly version: number };
  readonly timelineId: string;
  readonly jobId: string;
  readonly requestId: number;
  /** `system.github.results_endpoint` (run-service mode). */
  readonly resultsEndpoint?: string;
  readonly billingOwnerId?: string;
  /** The runner's name, on every timeline record. */
  readonly workerName: string;
  readonly platform: NodeJS.Platform;
  readonly masker: LogMasker;
  /** `GitHubActionsRunner-…`-style product token plus whatever the caller adds. */
  readonly userAgent: string;
  readonly fetch?: FetchLike;
  readonly now?: () => Date;
  readonly timings?: Partial<ReporterTimings>;
  readonly diagnostic?: DiagnosticLog;
}

function agentPlatform(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'Windows';
  if (platform === 'darwin') return 'MacOS';
  return 'Linux';
}

export function createReporter(options: ReporterOptions): Reporter {
  const timings: ReporterTimings = { ...DEFAULT_REPORTER_TIMINGS, ...options.timings };
  const http: HttpOptions = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    token: options.connection.token,
    timeoutMs: timings.requestTimeoutMs,
    outageMs: timings.outageMs,
    userAgent: options.userAgent,
  };
  const now = options.now ?? (() => new Date());
  const diagnostic = options.diagnostic ?? ((message: string) => process.stderr.write(`[svc-runner worker] ${message}\n`));
  if (options.mode === 'run-service') {
    return new ResultsReporter({
      http,
      url: options.connection.url,
      resultsEndpoint: options.resultsEndpoint,
      planId: options.plan.planId,
      jobId: options.jobId,
      ...(options.billingOwnerId === undefined ? {} : { billingOwnerId: options.billingOwnerId }),
      masker: options.masker,
      timings,
      now,
      diagnostic,
    });
  }
  return new LegacyReporter({
    http,
    url: options.connection.url,
    plan: { scopeIdentifier: options.plan.scopeIdentifier, hub: options.plan.planType, planId: options.plan.planId, version: options.plan.version },
    timelineId: options.timelineId,
    jobId: options.jobId,
    requestId: options.requestId,
    workerName: options.workerName,
    agentPlatform: agentPlatform(options.platform),
    masker: options.masker,
    timings,
    now,
    diagnostic,
  });
}
