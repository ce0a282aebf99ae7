/**
 * The one error hierarchy. Every error carries a stable `code` (snake_case, part of the API)
 * and the HTTP status it maps to; the HTTP layer maps them once (http/error-handler.ts).
 * A 500 means a bug or a failed dependency, never bad input.
 */
export interface SvcErrorOptions {
  readonly code?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

export class SvcError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(message: string, status: number, defaultCode: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? defaultCode;
    this.status = status;
    this.details = options.details;
  }
}

/** Malformed request or argument (400). */
export class InputError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 400, 'invalid_input', options);
  }
}

/** Well-formed but semantically invalid (422): failed validation of inputs, bodies, workflows. */
export class ValidationError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 422, 'validation_failed', options);
  }
}

/** Missing or invalid credential (401). */
export class AuthError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 401, 'unauthorized', options);
  }
}

/** Authenticated, but not allowed (403). */
export class ForbiddenError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 403, 'forbidden', options);
  }
}

export class NotFoundError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 404, 'not_found', options);
  }
}

/** The request conflicts with the current state (409). */
export class ConflictError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 409, 'conflict', options);
  }
}

/** A dependency we need is down or refusing (503). */
export class UnavailableError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 503, 'unavailable', options);
  }
}

/** An upstream (the forge) failed or answered nonsense (502). */
export class UpstreamError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 502, 'upstream_failed', options);
  }
}

/** A feature that is named but not built yet (501). The message names the feature. */
export class NotImplementedError extends SvcError {
  constructor(feature: string, options?: SvcErrorOptions) {
    super(`${feature} is not implemented yet`, 501, 'not_implemented', { ...options, details: { feature, ...options?.details } });
  }
}

/** Invalid configuration found at start; names the source, the key and what is allowed. */
export class ConfigError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 500, 'config_invalid', options);
  }
}

/** A plugin that cannot be loaded, wired or started; the message names the plugin. */
export class PluginError extends SvcError {
  constructor(message: string, options?: SvcErrorOptions) {
    super(message, 500, 'plugin_failed', options);
  }
}

export function isSvcError(error: unknown): error is SvcError {
  return error instanceof SvcError;
}
