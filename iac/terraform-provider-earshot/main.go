// Command terraform-provider-earshot is the Earshot provider for Terraform and OpenTofu.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/earshot/terraform-provider-earshot/internal/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

// version is set at release with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers such as delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         provider.Address,
		Debug:           *debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
