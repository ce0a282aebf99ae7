/** Direct calls to the runtime routes, as a client that is not the toolkit would make them. */

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
  readonly headers: Headers;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = {};
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** `POST /twirp/github.actions.results.api.v1.<service>/<method>` with a JSON body and the runtime token. */
export async function twirp(baseUrl: string, service: 'CacheService' | 'ArtifactService', method: string, body: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}/twirp/github.actions.results.api.v1.${service}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return answer(response);
}

/** Any HTTP call; the body is sent as is. */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  return answer(await fetch(url, init));
}
