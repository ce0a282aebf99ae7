/**
 * The runner's URL rules (RUNNER-PROTOCOL.md §0.6), shared by everything that calls the runner
 * surface (svc-runner's listener and worker, the replay corpus, tests):
 * - VSS clients fill a location's route template from route values (case-insensitive, with
 *   `{area}`/`{resource}` from the location), drop a segment left without a value, and append
 *   the result to the base URL's path;
 * - raw clients (broker, run service, results) resolve relative to a base that ends with `/`.
 */
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

/** A raw client's URL: RFC 3986 resolution against the base, given the trailing `/` it needs. */
export function rawUrl(base: string, relative: string, query: Readonly<Record<string, string>> = {}): string {
  const url = new URL(relative, base.endsWith('/') ? base : `${base}/`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}
