import type { TaskAgentSessionKey, TaskAgentSessionResponse } from '../../../core/protocol/index.js';
import type { AgentRecord } from '../store/index.js';
import type { SessionRecord } from './sessions-store.js';

/** The session response (§2.2): the runner keeps `sessionId`, `encryptionKey` and `useFipsEncryption`. */
export function sessionResponseWire(session: SessionRecord, agent: AgentRecord, encryptionKey: TaskAgentSessionKey): TaskAgentSessionResponse {
  return {
    sessionId: session.sessionId,
    ownerName: session.ownerName,
    agent: { id: agent.id, name: agent.name, version: agent.version, osDescription: agent.osDescription, enabled: true, status: 'online' },
    encryptionKey,
    useFipsEncryption: session.useFips,
  };
}
