# A tenant has one alert webhook; its id is always alert-webhook.
terraform import earshot_alert_webhook.pager alert-webhook
