import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema } from '@earshot/contracts';
import { buildHttp, MAX_PATH_PARAM_CHARS } from './http';

let app: FastifyInstance;

beforeAll(async () => {
  app = buildHttp();
  app.get('/things/:id', async (request) => ({ ok: true, id: (request.params as { id: string }).id }));
  app.post('/things/:id', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => app.close());

describe('the HTTP app answers what no route takes in the Error shape', () => {
  it('answers a method the path does not have with 405 and Allow', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/things/1' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(ErrorBodySchema.parse(response.json())).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers 405, not 400, to a method with a body and no content type (QUERY)', async () => {
    const response = await app.inject({ method: 'QUERY', url: '/things/1' });
    expect(response.statusCode).toBe(405);
    expect(response.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers 404 to a path no route has, whatever the method', async () => {
    const response = await app.inject({ method: 'TRACE', url: '/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers.allow).toBeUndefined();
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets a path parameter of the longest declared length through, even percent-encoded', async () => {
    const id = 'é'.repeat(MAX_PATH_PARAM_CHARS);
    const response = await app.inject({ method: 'GET', url: `/things/${encodeURIComponent(id)}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, id });
  });

  it('answers a path parameter past the router limit with 400 in the Error shape, not a bare 414', async () => {
    const response = await app.inject({ method: 'GET', url: `/things/${'0'.repeat(MAX_PATH_PARAM_CHARS * 13)}` });
    expect(response.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(response.json())).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
