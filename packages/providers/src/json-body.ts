import type { DeliveryRequest, ParsedBody } from './delivery';

/** A JSON body, as most providers send. */
export function parseJsonBody(request: DeliveryRequest): ParsedBody {
  try {
    return { ok: true, payload: JSON.parse(request.body.toString('utf8')) as unknown };
  } catch (error) {
    return { ok: false, reason: `the body is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
