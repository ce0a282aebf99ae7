// The listener's message queue (§2.3-§2.4, §4.9): the long poll that hands out jobs and
// cancellations, acknowledgements, and the composition of the whole legacy session flow.
export { createLegacyFlow, type LegacyFlow, type LegacyFlowInputs } from './legacy-flow.js';
export { createMessagesStore, type MessageRecord, type MessagesStore, type NewMessage } from './messages-store.js';
export { BROKER_MIGRATION_MESSAGE_ID, MESSAGES_PATH, registerMessageRoutes, type MessageRoutesDeps } from './message-routes.js';
export { nextMessage, type Delivery, type LongPollDeps, type PollContext } from './long-poll.js';
export { pollSignal, type PollSignal } from './poll-signal.js';
export { taskAgentMessageWire } from './message-wire.js';
export { planAssignment, type PlannedAssignment } from './job-plan.js';
export { jobMessageForDelivery } from './job-message-delivery.js';
