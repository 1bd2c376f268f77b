# A tenant's alerting and CI set up as code: a key for CI, two alert rules,
# the alert webhook and a deployment. Against `npm start`:
#
#   export EARSHOT_BASE_URL=http://127.0.0.1:8080/api/v1
#   export EARSHOT_API_KEY=<the demo key `npm start` prints>
#   terraform init && terraform apply      # or: tofu init && tofu apply

terraform {
  required_providers {
    earshot = {
      source = "earshot/earshot"
    }
  }
}

provider "earshot" {}

variable "alert_webhook_url" {
  type    = string
  default = "https://hooks.example.com/earshot/alerts"
}

variable "release" {
  type    = string
  default = "v42"
}

resource "earshot_api_key" "ci" {
  name             = "ci"
  scopes           = ["events:write", "deployments:write", "metrics:read"]
  rotation_trigger = "2026-q1"
}

resource "earshot_alert_rule" "p95_latency" {
  id          = "p95-latency"
  name        = "p95 latency over 1.2 s"
  metric      = "latency.total_ms.p95"
  comparison  = "gt"
  threshold   = 1200
  for_ms      = 300000
  severity    = "critical"
  description = "Callers wait too long for the agent to answer."
}

resource "earshot_alert_rule" "failed_calls" {
  id         = "failed-calls"
  name       = "More than 5 failed calls in 15 minutes"
  metric     = "calls.failed"
  comparison = "gt"
  threshold  = 5
  window_ms  = 900000
}

resource "earshot_alert_webhook" "pager" {
  url = var.alert_webhook_url
}

resource "earshot_deployment" "support" {
  id          = "agent_support-${var.release}"
  agent       = "agent_support"
  version     = var.release
  environment = "production"
  description = "Released by the pipeline that holds the ci key"
}

output "ci_key" {
  value     = earshot_api_key.ci.secret
  sensitive = true
}

output "alert_rules" {
  value = [earshot_alert_rule.p95_latency.id, earshot_alert_rule.failed_calls.id]
}
