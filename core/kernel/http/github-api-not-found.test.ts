import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerRouteGroup } from '../host-routes.js';
import { createSilentLogger } from '../logger.js';
import type { RouteGroup } from '../plugin.js';
import { createSystemAuth } from './system-auth.js';
import { createHttpServer } from './server.js';

const auth = createSystemAuth('a-system-token-of-some-length');

async function serverWith(groups: readonly RouteGroup[]) {
  const app = createHttpServer({ logger: createSilentLogger() });
  for (const group of groups) await registerRouteGroup(app, group, auth);
  await app.ready();
  return app;
}

describe('an unknown route under /api/v3', () => {
  it("gets GitHub's 404 body naming each group served there: its phrase, or its routes", async (t) => {
    const app = await serverWith([
      { prefix: '/api/v3', auth: 'public', serves: 'the widgets of a repository', register: (a) => void a.get('/repos/:owner/:repo/widgets', async () => ({})) },
      { auth: 'public', register: (a) => void a.post('/api/v3/things/*', async () => ({})) },
      { prefix: '/api/v1', auth: 'system', serves: 'not under /api/v3, never named', register: (a) => void a.get('/other', async () => ({})) },
    ]);
    t.after(() => app.close());
    const response = await app.inject({ method: 'GET', url: '/api/v3/repos/acme/app/gadgets?page=2' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      message: 'Not Found: svc does not serve GET /api/v3/repos/acme/app/gadgets; under /api/v3 it serves only the widgets of a repository; POST /api/v3/things/{path}',
      documentation_url: 'https://docs.github.com/rest',
      status: '404',
    });
    assert.equal((await app.inject({ method: 'DELETE', url: '/api/v3' })).json().status, '404');
  });

  it('says when nothing is served there, and leaves other unknown routes to svc\'s own body', async (t) => {
    const app = await serverWith([]);
    t.after(() => app.close());
    const v3 = await app.inject({ method: 'GET', url: '/api/v3/meta' });
    assert.equal(v3.json().message, 'Not Found: svc does not serve GET /api/v3/meta; it serves nothing under /api/v3');
    const other = await app.inject({ method: 'GET', url: '/api/v3x/meta' });
    assert.deepEqual(other.json(), { code: 'route_not_found', message: 'no route GET /api/v3x/meta' });
  });
});
