import { MessageTypes, type BrokerMessage, type RunnerJobRequestBody } from '../../../core/protocol/index.js';
import type { Delivery } from '../messages/index.js';

/**
 * A broker message (§2.5.2): plain JSON, no `iv`. A job goes out as a `RunnerJobRequest` naming
 * the job request (`runner_request_id`, the engine's job id) and the run service that hands out
 * its job message; the job message itself waits for `acquirejob`.
 */
export function brokerMessageWire(delivery: Delivery, runServiceUrl: string): BrokerMessage {
  const { message } = delivery;
  if (message.messageType !== MessageTypes.RunnerJobRequest || message.requestId === null) {
    return { messageId: message.id, messageType: message.messageType, body: delivery.body };
  }
  const body: RunnerJobRequestBody = {
    id: String(message.id),
    runner_request_id: String(message.requestId),
    run_service_url: runServiceUrl,
    should_acknowledge: true,
  };
  return { messageId: message.id, messageType: message.messageType, body: JSON.stringify(body) };
}
