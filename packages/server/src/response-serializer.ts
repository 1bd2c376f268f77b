import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';

type SerializerCompiler = typeof serializerCompiler;

/** A response body already written as JSON text, by Postgres for instance: the serializer sends it as it is. */
class RenderedJson {
  constructor(readonly text: string) {}
}

/**
 * `text`, the JSON of a T, as a handler's answer of type T. The zod type
 * provider types a handler's answer by its route's schema; this body is that
 * answer written out already, so it is held to the schema where every other
 * body is (below), not by the compiler.
 */
export function renderedAs<T>(text: string): T {
  return new RenderedJson(text) as unknown as T;
}

const jsonOf = (data: unknown): string => (data instanceof RenderedJson ? data.text : JSON.stringify(data));

/**
 * Response bodies as JSON.stringify writes them. The zod type provider makes
 * each handler return its response schema's type, so production trusts that;
 * outside production every body is also parsed by its schema and must come
 * out the same (no field missing or extra, every format right), so the tests
 * hold the handlers, and the statements that render JSON, to the document.
 * Parsing every row of a page again was a third of a list route's CPU.
 */
export function responseSerializer(checked: boolean): SerializerCompiler {
  if (!checked) return () => jsonOf;
  return (route) => {
    const parsedBySchema = serializerCompiler(route);
    return (data) => {
      const json = jsonOf(data);
      const value: unknown = JSON.parse(json);
      if (!isDeepStrictEqual(JSON.parse(parsedBySchema(value)), value)) {
        throw new Error(`the response of ${route.method} ${route.url} holds what its schema leaves out or changes`);
      }
      return json;
    };
  };
}
