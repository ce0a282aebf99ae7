/**
 * Location ids of the resources the listener calls (RUNNER-PROTOCOL.md §1.3; actions/runner
 * TaskAgentHttpClientBase) and the VSS URL rules (§0.6): a route template is filled from route
 * values (case-insensitive, `{area}`/`{resource}` from the location), a segment left without a
 * value is dropped, and the result is appended to the base URL's path.
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

export type RouteValues = Readonly<Record<string, string | number>>;

export function expandRoute(template: string, values: RouteValues, area: string, resource: string): string {
  const lookup = new Map<string, string>([
    ['area', area],
    ['resource', resource],
  ]);
  for (const [key, value] of Object.entries(values)) lookup.set(key.toLowerCase(), String(value));
  const segments: string[] = [];
  for (const part of template.split('/')) {
    const filled = part.replace(/\{\*?([^}]+)\}/g, (_match, name: string) => encodeURIComponent(lookup.get(name.toLowerCase()) ?? ''));
    if (filled !== '') segments.push(filled);
  }
  return segments.join('/');
}

/** Base path (trailing `/` trimmed) + `/` + the relative route + the query. */
export function vssUrl(base: string, relative: string, query: Readonly<Record<string, string>> = {}): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${relative.replace(/^\/+/, '')}`;
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}

/** A raw client's URL: RFC 3986 resolution against a base that must end with `/` (§0.6). */
export function rawUrl(base: string, relative: string, query: Readonly<Record<string, string>> = {}): string {
  const url = new URL(relative, base.endsWith('/') ? base : `${base}/`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}
