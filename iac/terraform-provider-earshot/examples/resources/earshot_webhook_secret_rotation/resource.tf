# Rotates the webhook secret each quarter; senders have a day to switch.
resource "earshot_webhook_secret_rotation" "quarterly" {
  rotation_trigger = "2026-q1"
  overlap_seconds  = 86400
}

output "webhook_secret" {
  value     = earshot_webhook_secret_rotation.quarterly.webhook_secret
  sensitive = true
}
