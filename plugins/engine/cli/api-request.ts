import type { ServerConnection } from './connection.js';

/**
 * One request to the server. An unreachable server and an error answer become one-line errors
 * a person can act on (the URL tried, or the server's own message and status).
 */
export async function apiRequest(connection: ServerConnection, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const url = `${connection.baseUrl}${path}`;
  let response: Response;
  try {
    const headers: Record<string, string> = { authorization: `Bearer ${connection.token}`, accept: 'application/json, text/plain, */*' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    if (why === 'bad port') {
      // fetch refuses the ports browsers block (6000, 6665-6669, ...), whatever listens there.
      throw new Error(`cannot talk to ${connection.baseUrl}: its port is one HTTP clients refuse; serve on another port (SVC_LISTEN) and set SVC_URL`);
    }
    throw new Error(`cannot reach the server at ${connection.baseUrl} (${why}); is \`svc serve\` running there? SVC_URL sets the address`);
  }
  if (response.ok) return response;
  const text = await response.text();
  let message = text.trim() || response.statusText;
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // not JSON: keep the text
  }
  if (response.status === 401) message += '; check SVC_TOKEN (or SVC_SYSTEM_TOKEN)';
  throw new Error(`${message} (HTTP ${response.status})`);
}
