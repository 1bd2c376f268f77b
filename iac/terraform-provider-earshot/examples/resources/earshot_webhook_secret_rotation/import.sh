# A rotation is imported by its previous_valid_until (GET /webhook-secret); the secret itself cannot be read back.
terraform import earshot_webhook_secret_rotation.quarterly 2026-04-02T09:00:00.000Z
