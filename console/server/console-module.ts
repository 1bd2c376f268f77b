import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Module, Runtime } from '@earshot/server';
import { CONSOLE_DIST, ensureConsoleBundle } from './console-bundle';

export const CONSOLE_PATH = '/console';

export interface ConsoleOptions {
  /** Send `/` to the console: the embedded mode has nothing else to show there. */
  redirectRoot: boolean;
}

/** Strict enough that the page can load nothing but this server's own files and talk to nothing else. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  // Recordings live with the voice provider; they load only when played.
  'media-src *',
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web console: its built files under /console/assets/ (named by content, so cached for good) and
 * index.html for every other path under /console, where the page's own router takes over.
 */
async function registerConsoleRoutes(app: FastifyInstance, options: ConsoleOptions, built: boolean): Promise<void> {
  if (options.redirectRoot) app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(CONSOLE_PATH, 302));
  if (!built) {
    const notBuilt = {
      ok: false,
      error: 'the console is not built here: run npm install (or npm run build -w console) with development dependencies',
      code: 'NOT_FOUND',
    };
    app.get(CONSOLE_PATH, { schema: { hide: true } }, async (_request, reply) => reply.code(404).send(notBuilt));
    app.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, async (_request, reply) => reply.code(404).send(notBuilt));
    return;
  }
  await app.register(fastifyStatic, {
    root: join(CONSOLE_DIST, 'assets'),
    prefix: `${CONSOLE_PATH}/assets/`,
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });
  // Read per request (a few hundred bytes), so a rebuild while the server runs is served at once.
  const sendPage = async (_request: unknown, reply: FastifyReply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .send(await readFile(join(CONSOLE_DIST, 'index.html')));
  app.get(CONSOLE_PATH, { schema: { hide: true } }, sendPage);
  app.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, sendPage);
}

export function consoleModule(runtime: Runtime, options: ConsoleOptions): Module {
  return {
    name: 'console',
    dependsOn: ['http'],
    start: async () => {
      const built = await ensureConsoleBundle((line) => console.error(line));
      await runtime.http().register(async (app: FastifyInstance) => registerConsoleRoutes(app, options, built));
      return { stop: async () => undefined };
    },
  };
}
