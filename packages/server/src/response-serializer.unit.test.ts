import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderedAs, responseSerializer } from './response-serializer';

const schema = z.object({ ok: z.literal(true), at: z.iso.datetime(), count: z.number().int() });
const route = { schema, method: 'GET', url: '/things', httpStatus: '200' };
const body = { ok: true, at: '2026-02-01T00:00:00.000Z', count: 3 };

describe('response bodies', () => {
  it('are JSON.stringify of what the handler returned, checked or not', () => {
    expect(responseSerializer(false)(route)(body)).toBe(JSON.stringify(body));
    expect(responseSerializer(true)(route)({ count: 3, at: body.at, ok: true })).toBe(JSON.stringify({ count: 3, at: body.at, ok: true }));
  });

  it('when checked, must be exactly what their schema makes of them', () => {
    const serialize = responseSerializer(true)(route);
    expect(() => serialize({ ...body, secret: 'an internal column' })).toThrow(/GET \/things holds what its schema leaves out or changes/);
    expect(() => serialize({ ...body, at: 'yesterday' })).toThrow();
    expect(() => serialize({ ok: true, at: body.at })).toThrow();
  });

  it('unchecked, are not parsed at all (production trusts the handlers’ types)', () => {
    expect(responseSerializer(false)(route)({ ...body, extra: 1 })).toBe(JSON.stringify({ ...body, extra: 1 }));
  });

  it('already rendered as JSON, are sent as rendered, and checked by their schema like any other', () => {
    const rendered = '{"ok":true,"at":"2026-02-01T00:00:00.000Z","count":3}';
    expect(responseSerializer(false)(route)(renderedAs(rendered))).toBe(rendered);
    expect(responseSerializer(true)(route)(renderedAs(rendered))).toBe(rendered);
    expect(() => responseSerializer(true)(route)(renderedAs('{"ok":true,"at":"2026-02-01 00:00:00+00","count":3}'))).toThrow();
    expect(() => responseSerializer(true)(route)(renderedAs('{"ok":true,"at":"2026-02-01T00:00:00.000Z","count":3,"tenant":"t"}'))).toThrow(/GET \/things/);
  });
});
