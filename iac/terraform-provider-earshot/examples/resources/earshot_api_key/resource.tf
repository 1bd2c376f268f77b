# A key for CI: it sends events and records deployments, from the runners' network only.
resource "earshot_api_key" "ci" {
  name         = "ci"
  scopes       = ["events:write", "deployments:write"]
  environment  = "production"
  ip_allowlist = ["203.0.113.0/24", "2001:db8::/32"]
  expires_at   = "2027-01-01T00:00:00Z"

  # Change it to rotate the key; the previous secret keeps working for an hour.
  rotation_trigger         = "2026-q1"
  rotation_overlap_seconds = 3600
}

output "ci_key" {
  value     = earshot_api_key.ci.secret
  sensitive = true
}
