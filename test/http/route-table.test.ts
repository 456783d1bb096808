import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { createRouteTable } from '../../src/http/route-table.js';

describe('route table', () => {
  const tableOf = async (define: (app: ReturnType<typeof Fastify>) => void) => {
    const app = Fastify();
    const table = createRouteTable(app);
    define(app);
    await app.ready();
    return table;
  };

  it('a concrete path > names the methods of every pattern it matches, in a fixed order', async () => {
    const table = await tableOf((app) => {
      app.post('/v1/pets', async () => ({}));
      app.get('/v1/pets', async () => ({}));
      app.delete('/v1/pets/:id', async () => ({}));
      app.get('/v1/pets/:id', async () => ({}));
    });
    assert.deepEqual(table.methodsAt('/v1/pets'), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(table.methodsAt('/v1/pets/7'), ['DELETE', 'GET', 'HEAD']);
    assert.deepEqual(table.methodsAt('/v1/p%65ts/7'), ['DELETE', 'GET', 'HEAD'], 'percent-decoded as the router does');
  });

  it('a path no pattern matches > answers no method', async () => {
    const table = await tableOf((app) => app.get('/v1/pets/:id', async () => ({})));
    assert.deepEqual(table.methodsAt('/v1/pets'), []);
    assert.deepEqual(table.methodsAt('/v1/pets/7/x'), []);
    assert.deepEqual(table.methodsAt('/v1/orders'), []);
  });

  it('a final * > matches whatever follows, but not the bare prefix', async () => {
    const table = await tableOf((app) => app.get('/docs/static/*', async () => ({})));
    assert.deepEqual(table.methodsAt('/docs/static/a/b.css'), ['GET', 'HEAD']);
    assert.deepEqual(table.methodsAt('/docs/static'), []);
  });

  it('an empty last parameter > matches, as the router routes it (GET /v1/pets/ reaches getPet)', async () => {
    const table = await tableOf((app) => app.get('/v1/pets/:id', async () => ({})));
    assert.deepEqual(table.methodsAt('/v1/pets/'), ['GET', 'HEAD']);
  });

  it('any pattern the router reads > is answered as the router answers it', async () => {
    const table = await tableOf((app) => {
      app.get('/files/:name.:ext', async () => ({}));
      app.put('/n/:id(^\\d+$)', async () => ({}));
    });
    assert.deepEqual(table.methodsAt('/files/a.txt'), ['GET', 'HEAD']);
    assert.deepEqual(table.methodsAt('/n/12'), ['PUT']);
    assert.deepEqual(table.methodsAt('/n/x'), []);
  });
});
