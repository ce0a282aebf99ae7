/**
 * Fastify paths of the Worker's resources, made from the route templates connectionData
 * advertises (registration/service-definitions.ts), so what we serve is what the runner builds.
 * The runner drops a trailing segment whose placeholder has no value (§0.6), so one template
 * serves both `POST …/logs` and `POST …/logs/{logId}`; `withoutLast` gives the shorter form.
 */
import { RUNNER_RESOURCES } from '../registration/index.js';

/** Location GUIDs of the Worker's calls (§1.3). */
export const WORKER_LOCATIONS = {
  timelines: '83597576-cc2c-453c-bea6-2882ae6a1653',
  records: '8893bc5b-35b2-4be7-83cb-99e683551db4',
  feed: '858983e4-19bd-4c5e-864c-507b59b58b12',
  logs: '46f5667d-263a-4684-91b1-dff7fdcf64e2',
  attachments: '7898f959-9cdf-4096-b29e-7f293031629e',
  events: '557624af-b29e-4c20-8ab0-0399d2204f3f',
} as const;

export type WorkerResource = keyof typeof WORKER_LOCATIONS;

/** `{scopeIdentifier}/_apis/…/{planId}` → `/:scopeIdentifier/_apis/…/:planId`. */
export function fastifyPath(template: string): string {
  return `/${template.replace(/^\/+/, '').replace(/\{\*?([A-Za-z0-9]+)\}/g, ':$1')}`;
}

/** The path of a resource; `withoutLast` drops its trailing placeholder (the create form). */
export function workerPath(resource: WorkerResource, options: { readonly withoutLast?: boolean } = {}): string {
  const id = WORKER_LOCATIONS[resource];
  const definition = RUNNER_RESOURCES.find((candidate) => candidate.id === id);
  if (definition === undefined) throw new Error(`connectionData advertises no '${resource}' location (${id})`);
  const path = fastifyPath(definition.routeTemplate);
  if (!options.withoutLast) return path;
  const shorter = path.replace(/\/:[A-Za-z0-9]+$/, '');
  if (shorter === path) throw new Error(`the '${resource}' template ends without a placeholder: ${definition.routeTemplate}`);
  return shorter;
}

/**
 * Largest JSON report of a job (timeline records, a feed batch, the JobCompleted event with its
 * outputs; the run-service and results wires use it too). Taken only with a job token, checked
 * before the body is read; other JSON routes keep the server's small default.
 */
export const JOB_REPORT_BODY_LIMIT = 10 * 1024 * 1024;
