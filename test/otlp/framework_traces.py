"""Emits a LiveKit Agents- or Pipecat-shaped voice session as OpenTelemetry spans
and sends them with the official OTLP exporter, configured by the environment
alone (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS,
OTEL_SERVICE_NAME), as an agent process does: the OTLP/HTTP protobuf one, or
the OTLP/gRPC one when OTEL_EXPORTER_OTLP_PROTOCOL is grpc (the variable the
SDK's auto-configuration chooses by).

The session is read from stdin as JSON (see otel-python-exporter.int.test.ts). The
spans are recorded first, then exported shuffled, in several batches, and the
first batch twice, as batch processors and retries deliver them. Prints the
trace id and how many spans were sent.
"""

import json
import os
import random
import sys

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

NS = 1_000_000


def child(tracer, name, parent, start_ms, end_ms, attributes):
    span = tracer.start_span(name, context=trace.set_span_in_context(parent), start_time=start_ms * NS, attributes=attributes)
    return span, end_ms


def finish(span, end_ms, error=None):
    if error is not None:
        span.set_status(Status(StatusCode.ERROR, error))
    span.end(end_time=end_ms * NS)


def livekit_session(tracer, session):
    at = session["startMs"]
    root = tracer.start_span("agent_session", start_time=at * NS, attributes={"lk.room_sid": "RM_otel", "lk.pii.room_name": "support-room", "lk.agent_name": "support"})
    for number, turn in enumerate(session["turns"]):
        at += 4_000
        user, user_end = child(tracer, "user_turn", root, at, at + 1_500, {"lk.pii.user_transcript": turn["user"], "lk.transcription_delay": turn["stt"], "lk.end_of_turn_delay": turn["eou"]})
        finish(user, user_end)
        at += 1_500
        reply, reply_end = child(
            tracer,
            "agent_turn",
            root,
            at,
            at + 3_000,
            {
                "lk.generation_id": f"gen_{number}",
                "lk.pii.user_input": turn["user"],
                "lk.e2e_latency": turn["e2e"],
                "lk.end_of_turn_delay": turn["eou"],
                "lk.transcription_delay": turn["stt"],
                "lk.interrupted": turn["interrupted"],
            },
        )
        llm, llm_end = child(
            tracer,
            "llm_node",
            reply,
            at + 10,
            at + 800,
            {"lk.response.ttft": turn["ttft"], "lk.pii.response.text": turn["agent"], "gen_ai.request.model": "gpt-4o-mini", "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 24},
        )
        finish(llm, llm_end)
        tts, tts_end = child(tracer, "tts_node", reply, at + 400, at + 2_500, {"lk.response.ttfb": turn["ttfb"], "lk.pii.input_text": turn["agent"]})
        finish(tts, tts_end)
        tool = turn.get("tool")
        if tool:
            call, call_end = child(
                tracer,
                "function_tool",
                reply,
                at + 820,
                at + 1_100,
                {
                    "lk.function_tool.id": tool["id"],
                    "lk.function_tool.name": tool["name"],
                    "lk.pii.function_tool.arguments": json.dumps(tool["arguments"]),
                    "lk.pii.function_tool.output": json.dumps(tool["output"]),
                    "lk.function_tool.is_error": False,
                },
            )
            finish(call, call_end)
        finish(reply, reply_end)
        at += 3_000
    finish(root, at + 1_000)
    return root


def pipecat_session(tracer, session):
    at = session["startMs"]
    root = tracer.start_span("conversation", start_time=at * NS, attributes={"conversation.id": session["conversationId"], "conversation.type": "voice"})
    for number, turn in enumerate(session["turns"], start=1):
        at += 4_000
        span, span_end = child(
            tracer,
            "turn",
            root,
            at,
            at + 4_000,
            {
                "turn.number": number,
                "turn.type": "conversation",
                "turn.duration_seconds": 4.0,
                "turn.was_interrupted": turn["interrupted"],
                "turn.user_bot_latency_seconds": turn["e2e"],
                "turn.user_turn_seconds": turn["eou"],
            },
        )
        stt, stt_end = child(
            tracer,
            "stt",
            span,
            at,
            at + 300,
            {"gen_ai.provider.name": "deepgram", "gen_ai.operation.name": "stt", "metrics.ttfb": turn["stt"], "transcript": turn["user"], "is_final": True, "language": "en"},
        )
        finish(stt, stt_end)
        llm, llm_end = child(
            tracer,
            "llm",
            span,
            at + 400,
            at + 1_200,
            {"gen_ai.provider.name": "openai", "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini", "metrics.ttfb": turn["ttft"], "output": turn["agent"]},
        )
        finish(llm, llm_end)
        tool = turn.get("tool")
        if tool:
            call, call_end = child(
                tracer,
                "llm_tool_call",
                span,
                at + 1_000,
                at + 1_150,
                {"tool.function_name": tool["name"], "tool.call_id": tool["id"], "tool.arguments": json.dumps(tool["arguments"]), "tool.result": json.dumps(tool["output"]), "tool.result_status": "completed"},
            )
            finish(call, call_end)
        # Pipecat synthesizes sentence by sentence: the turn's first synthesis is the one that counts.
        for sentence, offset in ((turn["ttfb"], 1_300), (turn["ttfb"] + 0.4, 2_100)):
            tts, tts_end = child(tracer, "tts", span, at + offset, at + offset + 600, {"gen_ai.provider.name": "cartesia", "gen_ai.operation.name": "tts", "gen_ai.output.type": "speech", "metrics.ttfb": sentence, "text": turn["agent"]})
            finish(tts, tts_end)
        finish(span, span_end)
        at += 4_000
    finish(root, at + 1_000)
    return root


def span_exporter():
    if os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    return OTLPSpanExporter()


def main():
    session = json.load(sys.stdin)
    recorded = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({}))
    provider.add_span_processor(SimpleSpanProcessor(recorded))
    tracer = provider.get_tracer("livekit-agents" if session["framework"] == "livekit" else "pipecat")
    root = (livekit_session if session["framework"] == "livekit" else pipecat_session)(tracer, session)

    spans = list(recorded.get_finished_spans())
    random.Random(session["seed"]).shuffle(spans)
    size = session["batchSize"]
    batches = [spans[i : i + size] for i in range(0, len(spans), size)]
    exporter = span_exporter()
    for batch in [*batches, batches[0]]:
        if exporter.export(batch) is not SpanExportResult.SUCCESS:
            sys.exit(f"the exporter could not send a batch of {len(batch)} spans")
    exporter.shutdown()
    print(json.dumps({"traceId": format(root.get_span_context().trace_id, "032x"), "spans": len(spans), "batches": len(batches) + 1}))


main()
