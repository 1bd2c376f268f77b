# A key is imported by its id; its secret cannot be read back, so `secret` stays null until the next rotation.
terraform import earshot_api_key.ci 0b7c7c3e-5a1d-4c9e-9f3e-2d8a4b6c1e70
