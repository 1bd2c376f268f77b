import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const number = optional(z.number());
const string = optional(z.string());

/** An entry of artifact.messages (@vapi-ai/server-sdk UserMessage, BotMessage, ToolCallMessage, ToolCallResultMessage, SystemMessage). */
const MessageSchema = z.looseObject({
  role: z.string(),
  message: string,
  time: number,
  endTime: number,
  secondsFromStart: number,
  duration: number,
  toolCalls: optional(
    z.array(z.looseObject({ id: string, type: string, function: optional(z.looseObject({ name: string, arguments: optional(z.unknown()) })) })),
  ),
  toolCallId: string,
  name: string,
  result: optional(z.unknown()),
});
export type VapiMessage = z.infer<typeof MessageSchema>;

/** @vapi-ai/server-sdk TurnLatency: each part of one turn, in ms. */
const TurnLatencySchema = z.looseObject({
  modelLatency: number,
  voiceLatency: number,
  transcriberLatency: number,
  endpointingLatency: number,
  turnLatency: number,
});

const DestinationSchema = optional(z.looseObject({ type: string, number: string, sipUri: string, assistantName: string, description: string }));

const ArtifactSchema = optional(
  z.looseObject({
    messages: optional(z.array(MessageSchema)),
    recordingUrl: string,
    stereoRecordingUrl: string,
    recording: optional(z.looseObject({ stereoUrl: string, mono: optional(z.looseObject({ combinedUrl: string })) })),
    transcript: string,
    performanceMetrics: optional(
      z.looseObject({ turnLatencies: optional(z.array(TurnLatencySchema)), numUserInterrupted: number, numAssistantInterrupted: number }),
    ),
    transfers: optional(z.array(z.looseObject({ destination: optional(z.unknown()), mode: string, status: string }))),
  }),
);

/** @vapi-ai/server-sdk Call: the ids, the kind and the parties. */
const CallSchema = z.looseObject({
  id: z.string().min(1),
  type: string,
  assistantId: string,
  squadId: string,
  workflowId: string,
  customerId: string,
  phoneCallProvider: string,
  phoneCallProviderId: string,
  startedAt: string,
  endedAt: string,
  customer: optional(z.looseObject({ number: string, externalId: string })),
});

const ToolCallSchema = z.looseObject({
  id: z.string().min(1),
  type: string,
  function: z.looseObject({ name: z.string().min(1), arguments: optional(z.unknown()) }),
});

/**
 * A server message of Vapi's (@vapi-ai/server-sdk ServerMessageMessage):
 * the fields of the types Earshot maps, every one optional (the type too:
 * the SDK leaves it out of tool-calls); the rest is kept.
 */
const VapiMessageSchema = z.looseObject({
  type: string,
  timestamp: number,
  call: optional(CallSchema),
  phoneNumber: optional(z.looseObject({ number: string })),
  customer: optional(z.looseObject({ number: string, externalId: string })),
  assistantVersion: string,
  status: string,
  endedReason: string,
  destination: DestinationSchema,
  artifact: ArtifactSchema,
  analysis: optional(z.looseObject({ summary: string, structuredData: optional(z.unknown()), successEvaluation: optional(z.unknown()) })),
  cost: number,
  costs: optional(z.array(z.looseObject({ type: string, cost: number }))),
  startedAt: string,
  endedAt: string,
  role: string,
  transcriptType: string,
  transcript: string,
  toolCallList: optional(z.array(ToolCallSchema)),
  turnId: string,
  toAssistant: optional(z.looseObject({ name: string })),
});
export type VapiServerMessage = z.infer<typeof VapiMessageSchema>;

/** Every Vapi server message: `{ message }`. */
export const VapiWebhookSchema = z.looseObject({ message: VapiMessageSchema });
