import type { IdGenerator } from '../../../core/ports/index.js';
import type { RunnerAuth } from '../auth/index.js';
import type { MessageRoutesDeps } from '../messages/index.js';

/** The broker routes run on the legacy flow's stores and long poll, plus session ids and runner auth. */
export interface BrokerDeps extends MessageRoutesDeps {
  readonly ids: IdGenerator;
  readonly runnerAuth: RunnerAuth;
}
