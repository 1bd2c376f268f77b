data "earshot_metrics" "all" {}

# Every latency percentile an alert rule may watch.
output "latency_metrics" {
  value = [for name in data.earshot_metrics.all.names : name if startswith(name, "latency.")]
}
