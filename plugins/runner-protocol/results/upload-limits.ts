/**
 * How large an upload may grow. `soft_size_limit` is what the URL answers announce; the runner
 * checks it for step summaries only (it refuses a larger summary itself), so the server enforces
 * the same figures: a request or an append past them is a 413 and what was stored stays.
 */
import { LOG_PAGE_BODY_LIMIT } from '../worker-api/index.js';
import type { UploadKind } from './uploads-store.js';

const MiB = 1024 * 1024;

/** GitHub's limit for a step summary (`$GITHUB_STEP_SUMMARY`). */
export const STEP_SUMMARY_SIZE_LIMIT = 1 * MiB;

/**
 * A step's (or the job's own) log. The runner sends it in 2 MiB blocks; a step printing more than
 * this is cut here, as a runaway step should not fill the server's disk; the lines before stay.
 */
export const LOG_SIZE_LIMIT = 256 * MiB;

/** The runner's diagnostic logs (a zip, only with runner diagnostics on). */
export const DIAGNOSTIC_LOGS_SIZE_LIMIT = 64 * MiB;

export interface UploadLimit {
  /** One PUT's body. A log block closes after the line that crossed 2 MiB, so a long line fits (the legacy page bound). */
  readonly request: number;
  /** The whole blob. */
  readonly total: number;
}

export const UPLOAD_LIMITS: Readonly<Record<UploadKind, UploadLimit>> = {
  'step-log': { request: LOG_PAGE_BODY_LIMIT, total: LOG_SIZE_LIMIT },
  'job-log': { request: LOG_PAGE_BODY_LIMIT, total: LOG_SIZE_LIMIT },
  'step-summary': { request: STEP_SUMMARY_SIZE_LIMIT, total: STEP_SUMMARY_SIZE_LIMIT },
  'diag-logs': { request: DIAGNOSTIC_LOGS_SIZE_LIMIT, total: DIAGNOSTIC_LOGS_SIZE_LIMIT },
};
