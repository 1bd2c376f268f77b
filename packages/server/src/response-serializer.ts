import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';

type SerializerCompiler = typeof serializerCompiler;

/**
 * Response bodies as JSON.stringify writes them. The zod type provider makes
 * each handler return its response schema's type, so production trusts that;
 * outside production every body is also parsed by its schema and must come
 * out the same (no field missing or extra, every format right), so the tests
 * hold the handlers to the document. Parsing every row of a page again was a
 * third of a list route's CPU.
 */
export function responseSerializer(checked: boolean): SerializerCompiler {
  if (!checked) return () => (data) => JSON.stringify(data);
  return (route) => {
    const parsedBySchema = serializerCompiler(route);
    return (data) => {
      const json = JSON.stringify(data);
      if (!isDeepStrictEqual(JSON.parse(parsedBySchema(data)), JSON.parse(json))) {
        throw new Error(`the response of ${route.method} ${route.url} holds what its schema leaves out or changes`);
      }
      return json;
    };
  };
}
