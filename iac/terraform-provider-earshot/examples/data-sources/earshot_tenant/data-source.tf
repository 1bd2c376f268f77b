data "earshot_tenant" "current" {}

output "tenant" {
  value = "${data.earshot_tenant.current.name} (${data.earshot_tenant.current.id})"
}
