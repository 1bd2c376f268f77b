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

describe('the HTTP app takes JSON bodies only, held to the contracts’ bounds', () => {
  let json: FastifyInstance;
  beforeAll(async () => {
    json = buildHttp();
    json.post('/echo', async (request) => ({ ok: true, body: request.body }));
    json.get('/find', async (request) => ({ ok: true, query: request.query }));
    await json.ready();
  });
  afterAll(async () => json.close());

  const post = (payload: string, contentType: string) => json.inject({ method: 'POST', url: '/echo', payload, headers: { 'content-type': contentType } });

  it('takes application/json with parameters, and any +json type', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'application/vnd.earshot+json; v=1']) {
      const response = await post('{"a":1}', type);
      expect(response.statusCode, type).toBe(200);
      expect(response.json()).toEqual({ ok: true, body: { a: 1 } });
    }
  });

  it('answers 415 in the Error shape to text/plain, a form and no content type (text/plain was once taken as JSON)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'text/json']) {
      const response = await post('{"a":1}', type);
      expect(response.statusCode, type).toBe(415);
      expect(ErrorBodySchema.parse(response.json())).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const bare = await json.inject({ method: 'POST', url: '/echo', payload: Buffer.from('{"a":1}') });
    expect(bare.statusCode).toBe(415);
  });

  it('answers 400, not 500, to JSON nested 5,000 deep, naming where the bound was passed', async () => {
    const response = await post(`${'['.repeat(5_000)}${']'.repeat(5_000)}`, 'application/json');
    expect(response.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(response.json())).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ message: 'nested deeper than 32 levels' }] });
    expect((await post(`${'['.repeat(32)}${']'.repeat(32)}`, 'application/json')).statusCode).toBe(200);
  });

  it('refuses a NUL or an unpaired surrogate anywhere in the body, in keys too, and bytes that are not UTF-8', async () => {
    const bodies = ['{"a":"x\\u0000"}', '{"a":["\\ud800"]}', '{"k\\u0000":1}', '{"a":1e400}'];
    for (const body of bodies) {
      const response = await post(body, 'application/json');
      expect(response.statusCode, body).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await post('{"a":"😀 é"}', 'application/json')).json()).toEqual({ ok: true, body: { a: '😀 é' } });
    const latin1 = await json.inject({
      method: 'POST',
      url: '/echo',
      payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'the body is not valid UTF-8' });
  });

  it('refuses a NUL in a query parameter, naming it', async () => {
    const response = await json.inject({ method: 'GET', url: '/find?agentId=a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ path: 'query.agentId' }] });
  });
});
