resource "earshot_alert_webhook" "pager" {
  url     = "https://hooks.example.com/earshot/alerts"
  enabled = true
}
