package earshot_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestModels(t *testing.T) {
	t.Run("[models-regenerate] regenerating the models from the served /openapi.json changes nothing", func(t *testing.T) {
		tg := liveTarget(t)
		out := t.TempDir()
		spec := strings.TrimSuffix(tg.baseURL, "/api/v1") + "/openapi.json"
		cmd := exec.Command("go", "run", "./internal/genmodels", "-spec", spec, "-out", out)
		if output, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("genmodels: %v\n%s", err, output)
		}
		for _, file := range []string{"models.gen.go", "catalogue.gen.go"} {
			checkedIn, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			regenerated, err := os.ReadFile(filepath.Join(out, file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(checkedIn, regenerated) {
				t.Errorf("%s differs from what the served description generates: run go generate ./... against a live Earshot", file)
			}
		}
	})
}
