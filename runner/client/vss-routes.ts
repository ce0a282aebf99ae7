/**
 * Location ids of the resources the listener calls (RUNNER-PROTOCOL.md §1.3; actions/runner
 * TaskAgentHttpClientBase); the URL rules themselves (§0.6) are core/protocol's.
 */
export const LOCATIONS = {
  pools: 'a8c47e17-4d56-4a56-92bb-de7ea7dc65be',
  agents: 'e298ef32-5878-4cab-993c-043836571f42',
  sessions: '134e239e-2df3-4794-a6f6-24f1f19ec8dc',
  messages: 'c3a054f6-7a8a-49c0-944e-3a8e5d7adfd7',
  jobRequests: 'fc825784-c92a-4299-9221-998a02d1b54f',
  runnerMessages: '25adab70-1379-4186-be8e-b643061ebe3a',
  timelines: '83597576-cc2c-453c-bea6-2882ae6a1653',
  records: '8893bc5b-35b2-4be7-83cb-99e683551db4',
} as const;
export type LocationId = (typeof LOCATIONS)[keyof typeof LOCATIONS];

export { expandRoute, rawUrl, vssUrl, type RouteValues } from '../../core/protocol/index.js';
