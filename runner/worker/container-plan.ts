/**
 * What "Set up job" decides about a job's containers (JobExtension.InitializeJob): the message's
 * `jobContainer` and `jobServiceContainers` tokens evaluated with the schema's `container` and
 * `services` definitions and read as container definitions; a job with any of them needs Linux
 * and a container engine on the worker's `PATH` (`docker`, else `podman`), or it fails here
 * naming what is missing. The job's container state lives in `JobContainers` from then on.
 */
import { TokenType, type TemplateToken } from '../../core/protocol/index.js';
import { evaluateTemplate, tokenToValue } from '../../core/workflow/index.js';
import {
  containerDefinitionOf,
  detectEngine,
  serviceDefinitionsOf,
  type ContainerDefinition,
  type ContainerEngine,
  type EngineClient,
  type StartedContainers,
} from '../containers/index.js';
import { which, type StepHost } from '../handlers/index.js';
import type { RecordContext } from './record-context.js';
import type { EvaluationScope } from './templates/evaluate-fields.js';
import { toParserToken } from './templates/parser-tokens.js';

export interface ContainerPlan {
  readonly engine: ContainerEngine;
  readonly job?: ContainerDefinition;
  /** By service name (the network alias), in the workflow's order. */
  readonly services: ReadonlyMap<string, ContainerDefinition>;
}

/** The job's container state, filled as "Set up job", "Initialize containers" and "Stop containers" run. */
export interface JobContainers {
  plan?: ContainerPlan;
  initializeRecord?: RecordContext;
  stopRecord?: RecordContext;
  client?: EngineClient;
  started?: StartedContainers;
  /** Where `run:` steps and JavaScript actions run (the job container), once known. */
  stepHost?: StepHost;
}

function present(token: TemplateToken | undefined): token is TemplateToken {
  return token !== undefined && token.type !== TokenType.Null;
}

function evaluated(token: TemplateToken, definition: string, scope: EvaluationScope): unknown {
  const result = evaluateTemplate(toParserToken(token), scope.contexts, {
    definition,
    fileTable: scope.fileTable,
    ...(scope.hashFiles === undefined ? {} : { hashFiles: scope.hashFiles }),
  });
  return tokenToValue(result, definition);
}

/** The job's container definitions (undefined when it has none to run). */
export function evaluateContainers(
  tokens: { readonly jobContainer?: TemplateToken; readonly jobServiceContainers?: TemplateToken },
  scope: EvaluationScope,
): { job?: ContainerDefinition; services: Map<string, ContainerDefinition> } | undefined {
  const job = present(tokens.jobContainer) ? containerDefinitionOf(evaluated(tokens.jobContainer, 'container', scope), 'container') : undefined;
  const services = present(tokens.jobServiceContainers) ? serviceDefinitionsOf(evaluated(tokens.jobServiceContainers, 'services', scope)) : new Map<string, ContainerDefinition>();
  if (job === undefined && services.size === 0) return undefined;
  return { ...(job === undefined ? {} : { job }), services };
}

/** What the job's containers are called in messages: the job container, the service containers, or both. */
export function containerKind(plan: { readonly job?: ContainerDefinition; readonly services: ReadonlyMap<string, ContainerDefinition> }): string {
  const parts = [
    ...(plan.job === undefined ? [] : [`a job container (jobs.<job_id>.container: ${plan.job.image})`]),
    ...(plan.services.size === 0 ? [] : [`service containers (jobs.<job_id>.services: ${[...plan.services.keys()].join(', ')})`]),
  ];
  return `This job runs ${parts.join(' and ')}: it`;
}

/**
 * The plan of a job with containers: throws, naming what is missing, when this runner cannot
 * run them (not Linux; neither `docker` nor `podman` on `path`).
 */
export function planContainers(
  definitions: { job?: ContainerDefinition; services: Map<string, ContainerDefinition> },
  platform: NodeJS.Platform,
  path: string,
): ContainerPlan {
  if (platform !== 'linux') throw new Error('Container operations are only supported on Linux runners');
  const engine = detectEngine((name) => which(name, path, platform));
  if (engine === undefined) {
    throw new Error(`${containerKind(definitions)} needs a container engine, but neither 'docker' nor 'podman' was found on PATH (${path === '' ? 'empty' : path}). Install docker (or podman) on the runner's machine.`);
  }
  return { engine, ...definitions };
}
