# p95 total latency of the support agent over 1.2 s for 5 minutes, held for 5 minutes.
resource "earshot_alert_rule" "support_latency" {
  id          = "support-p95-latency"
  name        = "Support agent: p95 latency over 1.2 s"
  metric      = "latency.total_ms.p95"
  agent_id    = "agent_support"
  comparison  = "gt"
  threshold   = 1200
  window_ms   = 300000
  for_ms      = 300000
  severity    = "critical"
  description = "Check the LLM provider's status page, then the ASR latency panel."
}
