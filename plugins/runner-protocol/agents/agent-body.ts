import type { AgentLabel, LabelType, RsaPublicKey } from '../store/index.js';
import { VssError } from '../vss/index.js';
import { isWireObject, member, type WireObject } from './wire-object.js';

/** What a configuring runner sends as its TaskAgent (create and replace, §1.5). */
export interface AgentBody {
  readonly name: string;
  readonly version: string;
  readonly osDescription: string;
  readonly labels: readonly AgentLabel[];
  readonly publicKey: RsaPublicKey;
  readonly ephemeral: boolean;
  readonly disableUpdate: boolean;
}

export const MAX_AGENT_NAME = 255;
export const MAX_LABEL = 255;

function invalid(message: string): VssError {
  return new VssError(400, 'VssServiceException', message, { code: 'invalid_agent' });
}

function optionalString(object: WireObject, name: string): string {
  const value = member(object, name);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

function optionalBoolean(object: WireObject, name: string): boolean {
  const value = member(object, name);
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false`);
  return value;
}

/** LabelType: System = 0, User = 1, as a number or a name in any case. */
function labelType(value: unknown): LabelType {
  if (value === undefined || value === null) return 'user';
  if (value === 0 || (typeof value === 'string' && value.toLowerCase() === 'system')) return 'system';
  if (value === 1 || (typeof value === 'string' && value.toLowerCase() === 'user')) return 'user';
  throw invalid(`label type must be "system" or "user" (or 0, 1), not ${JSON.stringify(value)}`);
}

/**
 * Labels (`[{name, type}]`, type a LabelType name or number) as a set: the first spelling of a
 * name wins, later ones ignoring case are dropped.
 */
export function parseAgentLabels(value: unknown): AgentLabel[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('labels must be a list of {name, type}');
  const labels: AgentLabel[] = [];
  const seen = new Set<string>();
  for (const item of value) {
    if (!isWireObject(item)) throw invalid('each label must be an object {name, type}');
    const name = member(item, 'name');
    if (typeof name !== 'string' || name.trim() === '') throw invalid('a label has no name');
    if (name.length > MAX_LABEL) throw invalid(`label '${name.slice(0, 40)}...' is longer than ${MAX_LABEL} characters`);
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    labels.push({ name, type: labelType(member(item, 'type')) });
  }
  return labels;
}

function parsePublicKey(body: WireObject): RsaPublicKey {
  const authorization = member(body, 'authorization');
  const publicKey = isWireObject(authorization) ? member(authorization, 'publicKey') : undefined;
  if (!isWireObject(publicKey)) throw invalid("authorization.publicKey is missing: the runner's RSA public key (exponent, modulus) is required");
  const exponent = member(publicKey, 'exponent');
  const modulus = member(publicKey, 'modulus');
  if (typeof exponent !== 'string' || typeof modulus !== 'string') throw invalid('authorization.publicKey needs base64 "exponent" and "modulus"');
  return { exponent, modulus };
}

/** Validates a TaskAgent body; the key itself is checked by the caller (auth/public-key). */
export function parseAgentBody(body: unknown): AgentBody {
  if (!isWireObject(body)) throw invalid('the body must be a TaskAgent object');
  const name = member(body, 'name');
  if (typeof name !== 'string' || name.trim() === '') throw invalid('the runner needs a name');
  if (name.length > MAX_AGENT_NAME) throw invalid(`the runner name is longer than ${MAX_AGENT_NAME} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid('the runner name contains control characters');
  return {
    name,
    version: optionalString(body, 'version'),
    osDescription: optionalString(body, 'osDescription'),
    labels: parseAgentLabels(member(body, 'labels')),
    publicKey: parsePublicKey(body),
    ephemeral: optionalBoolean(body, 'ephemeral'),
    disableUpdate: optionalBoolean(body, 'disableUpdate'),
  };
}
