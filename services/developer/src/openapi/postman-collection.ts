import { convert } from 'openapi-to-postmanv2';
import type { OpenAPIV3_1 } from 'openapi-types';
import { INGEST_HEADERS, WEBHOOK_EVENT_HEADERS } from '@earshot/contracts';

/**
 * Signs every webhook request the way the gateway checks it: the timestamp,
 * a dot and the raw body, HMAC-SHA256 with the webhook secret, lowercase hex.
 * Postman runs it before each request of the collection (CryptoJS is built in).
 */
export const SIGNING_SCRIPT = [
  'const path = pm.request.url.getPath();',
  "if (path.includes('/webhooks/')) {",
  "  const secret = pm.variables.get('webhookSecret');",
  '  const timestamp = String(Math.floor(Date.now() / 1000));',
  "  const body = pm.request.body && pm.request.body.raw ? pm.variables.replaceIn(pm.request.body.raw) : '';",
  "  const signature = CryptoJS.HmacSHA256(timestamp + '.' + body, secret).toString(CryptoJS.enc.Hex);",
  "  const ingest = path.includes('/webhooks/ingest');",
  `  pm.request.headers.upsert({ key: ingest ? '${INGEST_HEADERS.timestamp}' : '${WEBHOOK_EVENT_HEADERS.timestamp}', value: timestamp });`,
  `  pm.request.headers.upsert({ key: ingest ? '${INGEST_HEADERS.signature}' : '${WEBHOOK_EVENT_HEADERS.signature}', value: signature });`,
  '}',
];

export type PostmanCollection = Record<string, unknown> & { item: unknown[]; variable?: { key: string; value: string; description?: string }[] };

/** A Postman v2.1 collection of the description: the API key as the bearer variable, webhook requests signed before they leave. */
export function postmanCollection(description: OpenAPIV3_1.Document, baseUrl: string): Promise<PostmanCollection> {
  return new Promise((resolve, reject) => {
    convert(
      { type: 'json', data: description as unknown as Record<string, unknown> },
      { folderStrategy: 'Tags', requestParametersResolution: 'Example', includeAuthInfoInExample: false },
      (error, result) => {
        const output = result?.output?.[0];
        if (error || !result?.result || !output) return reject(error ?? new Error(`the description did not convert: ${result?.reason ?? 'no output'}`));
        const collection = output.data as PostmanCollection;
        const variables = (collection.variable ?? []).filter((v) => !['baseUrl', 'apiKey', 'webhookSecret'].includes(v.key));
        resolve({
          ...collection,
          auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
          event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: SIGNING_SCRIPT } }],
          variable: [
            { key: 'baseUrl', value: baseUrl },
            { key: 'apiKey', value: '', description: 'an API key: ear_live_… or ear_test_…' },
            { key: 'webhookSecret', value: '', description: 'the tenant webhook secret, for signed ingest' },
            ...variables,
          ],
        });
      },
    );
  });
}
