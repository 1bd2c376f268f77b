terraform {
  required_providers {
    earshot = {
      source = "earshot/earshot"
    }
  }
}

# The key and the URL may also come from EARSHOT_API_KEY and EARSHOT_BASE_URL.
provider "earshot" {
  base_url = "https://earshot.example.com/api/v1"
  api_key  = var.earshot_api_key
}

variable "earshot_api_key" {
  type      = string
  sensitive = true
}
