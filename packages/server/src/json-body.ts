import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError, jsonShapeIssues, type FieldIssue } from '@earshot/contracts';

/** `application/json`, or any `application/…+json` (problem+json, merge-patch+json), with or without parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i;

export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}

export function unsupportedMediaType(contentType: string | undefined): ApiError {
  return new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${contentType ? `content type ${contentType.slice(0, 100)} is not taken here` : 'the body has no content type'}; send application/json`,
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function refused(place: string, issues: FieldIssue[]): ApiError {
  const fields = issues.map((issue) => ({ path: issue.path === '(body)' ? place : `${place}.${issue.path}`, message: issue.message }));
  return new ApiError('VALIDATION_ERROR', `the ${place} is invalid: ${fields.map((f) => f.path).join(', ')}`, { fields });
}

/**
 * Every route of the app reads JSON bodies only (others are answered 415),
 * as UTF-8, and every value a request carries, body, query and path, is
 * held to the one rule of the contracts (jsonShapeIssues: depth, length,
 * text PostgreSQL can store) before any schema sees it: a schema's parse
 * recurses, and a NUL reached PostgreSQL as a 500 or a stopped projector.
 * A plugin that keeps raw bytes (the signed webhooks) sets its own parser.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'buffer' }, (_request, body, done) => {
    let value: unknown;
    try {
      const text = utf8.decode(body as Buffer);
      if (text.length === 0) return done(new ApiError('VALIDATION_ERROR', 'request body is empty; send a JSON body'), undefined);
      // As Fastify's own parser: a __proto__ or constructor.prototype key is refused, not merged into objects.
      value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      const what = error instanceof TypeError ? 'not valid UTF-8' : `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
      return done(new ApiError('VALIDATION_ERROR', `the body is ${what}`, { fields: [{ path: 'body', message: what }] }), undefined);
    }
    const issues = jsonShapeIssues(value);
    return issues.length > 0 ? done(refused('body', issues), undefined) : done(null, value);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    for (const [place, value] of [
      ['query', request.query],
      ['path', request.params],
    ] as const) {
      const issues = jsonShapeIssues(value);
      if (issues.length > 0) throw refused(place, issues);
    }
  });
}
