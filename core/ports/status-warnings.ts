import { createExtensionPoint } from '../kernel/index.js';

/** A warning condition listed by `GET /api/v1/status` (spec: Errors, "Status conditions"). */
export interface StatusWarning {
  /** Stable snake_case code, e.g. `webhook_dead_letter`. */
  readonly code: string;
  readonly message: string;
}

export type StatusWarningSource = () => Promise<readonly StatusWarning[]>;

/** Plugins contribute warning sources; the management API asks each on every status request. */
export interface StatusWarningsExtension {
  addSource(name: string, source: StatusWarningSource): void;
}

export const statusWarningsExtensionPoint = createExtensionPoint<StatusWarningsExtension>({ id: 'management-api.statusWarnings' });
