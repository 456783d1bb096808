/** Generates the OpenAPI document of the default configuration, without a database file or a port. */
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createDb } from './db/create-db.js';

export async function generateOpenApiDocument(): Promise<unknown> {
  const handle = createDb('sqlite::memory:');
  try {
    const app = await buildApp({ db: handle.db, config: loadConfig({ LOG_LEVEL: 'silent' }) });
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await handle.close();
  }
}
