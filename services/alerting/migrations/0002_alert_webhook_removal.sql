-- DELETE /alerts/webhook: a tenant may stop its notifications altogether, not only disable them.
grant delete on alert_webhooks to earshot_app;
