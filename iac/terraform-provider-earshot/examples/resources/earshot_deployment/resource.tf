# Recorded by the release pipeline, with the version it ships.
variable "release" {
  type    = string
  default = "v42"
}

resource "earshot_deployment" "support" {
  id               = "agent_support-${var.release}"
  agent            = "agent_support"
  version          = var.release
  previous_version = "v41"
  environment      = "production"
  description      = "New greeting; faster ASR model"
}
