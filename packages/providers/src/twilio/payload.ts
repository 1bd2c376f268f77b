import { z } from 'zod';
import type { DeliveryRequest, ParsedBody } from '../delivery';
import { parseJsonBody } from '../json-body';
import { formParameters } from './verify';

const string = z.string().nullish();

/**
 * The parameters of Twilio's call status and recording status callbacks
 * (twilio.com/docs/voice/api/call-resource#statuscallback and
 * …/recording#recordingstatuscallback), all text as Twilio sends them; the
 * rest is kept.
 */
export const TwilioCallbackSchema = z.looseObject({
  CallSid: z.string().min(1),
  AccountSid: string,
  CallStatus: string,
  From: string,
  To: string,
  Direction: string,
  CallDuration: string,
  Timestamp: string,
  SequenceNumber: string,
  CallbackSource: string,
  AnsweredBy: string,
  SipResponseCode: string,
  ErrorCode: string,
  ErrorMessage: string,
  ParentCallSid: string,
  RecordingSid: string,
  RecordingUrl: string,
  RecordingStatus: string,
  RecordingDuration: string,
  RecordingChannels: string,
  RecordingSource: string,
  RecordingStartTime: string,
});
export type TwilioCallback = z.infer<typeof TwilioCallbackSchema>;

/** Twilio posts form parameters (a repeated name keeps its last value; the signature covers them all); JSON bodies come with bodySHA256. */
export function parseTwilioBody(request: DeliveryRequest): ParsedBody {
  if ((request.headers['content-type'] ?? '').includes('json')) return parseJsonBody(request);
  const parameters = formParameters(request.body);
  return { ok: true, payload: Object.fromEntries([...parameters].map(([name, values]) => [name, values.at(-1)])) };
}
