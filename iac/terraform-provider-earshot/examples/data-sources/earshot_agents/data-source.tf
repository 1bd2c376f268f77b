data "earshot_agents" "all" {}

# One latency rule per agent that has taken calls.
resource "earshot_alert_rule" "latency" {
  for_each   = toset([for agent in data.earshot_agents.all.agents : agent.id if agent.calls > 0])
  metric     = "latency.total_ms.p95"
  agent_id   = each.value
  comparison = "gt"
  threshold  = 1500
}
