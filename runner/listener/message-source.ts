import type { KeyObject } from 'node:crypto';
import {
  EMPTY_GUID,
  MessageTypes,
  brokerMigrationBodySchema,
  decryptMessageBody,
  messageTypeMatches,
  unwrapSessionKey,
  type BrokerMigrationBody,
  type TaskAgentMessage,
  type TaskAgentSessionRequest,
} from '../../core/protocol/index.js';
import { BrokerClient, wireValidator, type PollStatus, type RunnerIdentity } from '../client/index.js';
import type { RunnerSettings } from '../config/index.js';
import type { RunnerConnections } from './runner-config.js';

/** A message as the listener handles it: the body decrypted (legacy) or as sent (broker). */
export interface ReceivedMessage {
  readonly messageId: number;
  readonly messageType: string;
  readonly body: string;
}

/** Where messages come from: the legacy queue (§2.2-§2.3) or the broker (§2.5). */
export interface MessageSource {
  readonly flow: 'legacy' | 'broker';
  /** One attempt; errors are classified by the caller (session-opener.ts). */
  createSession(signal: AbortSignal): Promise<void>;
  /** One long poll; undefined when it ended empty. */
  getMessage(status: PollStatus['status'], signal: AbortSignal): Promise<ReceivedMessage | undefined>;
  /** The acknowledgement of a handled message (a no-op on the broker). */
  deleteMessage(message: ReceivedMessage): Promise<void>;
  /** `POST acknowledge` for a RunnerJobRequest; needs a broker connection. */
  acknowledge(runnerRequestId: string, status: PollStatus['status'], signal: AbortSignal): Promise<void>;
  deleteSession(): Promise<void>;
  /** Drops connections and the token (ForceTokenRefresh, errors). */
  reset(): void;
}

const checkMigration = wireValidator<BrokerMigrationBody>(brokerMigrationBodySchema);

export function sessionRequest(settings: RunnerSettings, identity: RunnerIdentity): TaskAgentSessionRequest {
  return {
    sessionId: EMPTY_GUID,
    ownerName: identity.ownerName,
    agent: { id: settings.agentId, name: settings.agentName, version: identity.version, osDescription: identity.osDescription, ephemeral: null, status: 0, provisioningState: null },
    useFipsEncryption: false,
  };
}

export function pollStatus(settings: RunnerSettings, identity: RunnerIdentity, status: PollStatus['status']): PollStatus {
  return { status, runnerVersion: identity.version, os: identity.os, architecture: identity.architecture, disableUpdate: settings.disableUpdate ?? false };
}

/**
 * The legacy message queue: a session whose AES key is RSA-unwrapped with the runner's key,
 * encrypted bodies, DELETE as acknowledgement, and BrokerMigration: one broker poll with the
 * legacy session id in the same iteration (§2.5.4).
 */
export class LegacySource implements MessageSource {
  readonly flow = 'legacy';
  #session: { readonly id: string; readonly key: Buffer | undefined } | undefined;
  #lastMessageId: number | undefined;
  #broker: BrokerClient | undefined;

  constructor(
    private readonly connections: RunnerConnections,
    private readonly settings: RunnerSettings,
    private readonly identity: RunnerIdentity,
    private readonly key: KeyObject,
  ) {}

  async createSession(signal: AbortSignal): Promise<void> {
    const session = await this.connections.legacy.createSession(sessionRequest(this.settings, this.identity), signal);
    const key = unwrapSessionKey(session.encryptionKey, this.key, { useFipsEncryption: session.useFipsEncryption });
    this.#session = { id: session.sessionId, key };
  }

  async getMessage(status: PollStatus['status'], signal: AbortSignal): Promise<ReceivedMessage | undefined> {
    const session = this.#requireSession();
    const poll = pollStatus(this.settings, this.identity, status);
    const wire = await this.connections.legacy.getMessage(session.id, this.#lastMessageId, poll, signal);
    if (wire === undefined) return undefined;
    let message: ReceivedMessage = decrypt(wire, session.key);
    if (message.messageType === MessageTypes.BrokerMigration) {
      const migration = checkMigration(JSON.parse(message.body), 'the BrokerMigration message');
      if (this.#broker?.baseUrl !== migration.brokerBaseUrl) this.#broker = new BrokerClient(this.connections.raw, migration.brokerBaseUrl);
      const brokered = await this.#broker.getMessage(session.id, poll, signal);
      if (brokered === undefined) return undefined;
      message = { messageId: brokered.messageId, messageType: brokered.messageType, body: brokered.body ?? '' };
    }
    this.#lastMessageId = message.messageId;
    return message;
  }

  async deleteMessage(message: ReceivedMessage): Promise<void> {
    await this.connections.legacy.deleteMessage(message.messageId, this.#requireSession().id);
  }

  async acknowledge(runnerRequestId: string, status: PollStatus['status'], signal: AbortSignal): Promise<void> {
    if (this.#broker === undefined) throw new Error('a RunnerJobRequest asked for an acknowledgement, but the legacy session has no broker connection (no BrokerMigration yet)');
    await this.#broker.acknowledge(runnerRequestId, this.#requireSession().id, pollStatus(this.settings, this.identity, status), signal);
  }

  async deleteSession(): Promise<void> {
    if (this.#session === undefined) return;
    await this.connections.legacy.deleteSession(this.#session.id);
  }

  reset(): void {
    this.connections.vss.reset();
    this.connections.tokens.invalidate();
  }

  #requireSession(): { readonly id: string; readonly key: Buffer | undefined } {
    if (this.#session === undefined) throw new Error('no session: createSession first');
    return this.#session;
  }
}

function decrypt(message: TaskAgentMessage, key: Buffer | undefined): ReceivedMessage {
  // Broker migrations and other unencrypted messages carry no iv; decryptMessageBody passes them through.
  return { messageId: message.messageId, messageType: message.messageType, body: decryptMessageBody(message, key) };
}

/** The broker listener (§2.5): plain JSON bodies, nothing to delete. */
export class BrokerSource implements MessageSource {
  readonly flow = 'broker';
  readonly #broker: BrokerClient;
  #sessionId: string | undefined;

  constructor(
    private readonly connections: RunnerConnections,
    private readonly settings: RunnerSettings,
    private readonly identity: RunnerIdentity,
    brokerUrl: string,
  ) {
    this.#broker = new BrokerClient(connections.raw, brokerUrl);
  }

  async createSession(signal: AbortSignal): Promise<void> {
    this.#sessionId = await this.#broker.createSession(sessionRequest(this.settings, this.identity), signal);
    // Like the official broker listener: when `serverUrl` is another server than the broker, the
    // legacy VSS connection is opened too (its connectionData), for the calls that still go there.
    const legacyUrl = this.settings.serverUrl;
    if (legacyUrl !== '' && legacyUrl !== this.settings.serverUrlV2) await this.connections.vss.locations(signal);
  }

  async getMessage(status: PollStatus['status'], signal: AbortSignal): Promise<ReceivedMessage | undefined> {
    const message = await this.#broker.getMessage(this.#requireSession(), pollStatus(this.settings, this.identity, status), signal);
    return message === undefined ? undefined : { messageId: message.messageId, messageType: message.messageType, body: message.body ?? '' };
  }

  async deleteMessage(): Promise<void> {
    // DeleteMessageAsync is a no-op on the broker: a message is consumed when returned (§2.5.2).
  }

  async acknowledge(runnerRequestId: string, status: PollStatus['status'], signal: AbortSignal): Promise<void> {
    await this.#broker.acknowledge(runnerRequestId, this.#requireSession(), pollStatus(this.settings, this.identity, status), signal);
  }

  async deleteSession(): Promise<void> {
    if (this.#sessionId === undefined) return;
    await this.#broker.deleteSession();
  }

  reset(): void {
    this.connections.tokens.invalidate();
  }

  #requireSession(): string {
    if (this.#sessionId === undefined) throw new Error('no session: createSession first');
    return this.#sessionId;
  }
}

/** True for a message of this type, compared as the runner compares (§2.4). */
export function isType(message: ReceivedMessage, type: (typeof MessageTypes)[keyof typeof MessageTypes]): boolean {
  return messageTypeMatches(message.messageType, type);
}
