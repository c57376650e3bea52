package uppaal

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

// loadAll reads, compiles and compiles the queries of a model file, as
// `tcheck verify` does, and returns the first error.
func loadAll(path string, extraQueries string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := ParseFile(path, src)
	if err != nil {
		return err
	}
	if extraQueries != "" {
		qsrc, err := os.ReadFile(extraQueries)
		if err != nil {
			return err
		}
		if err := SetQueries(f, extraQueries, qsrc); err != nil {
			return err
		}
	}
	net, err := f.Compile(nil)
	if err != nil {
		return err
	}
	qs, err := queries.FromFile(net, f, nil)
	if err != nil {
		return err
	}
	return queries.FirstErr(qs)
}

// TestUnsupportedFeaturesGoldenErrors loads one file per feature tcheck
// does not support (testdata/errors: UPPAAL SMC's branchpoints,
// probabilities and exponential rates, stopwatches, hybrid
// clocks, double, meta clocks, scalar, dynamic templates, LSC, imports,
// statistical and TIGA queries...) and compares the errors with
// testdata/errors.golden: each names the feature and its file:line:col.
// A file that loads would show as "ok" — a silent misreading.
func TestUnsupportedFeaturesGoldenErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, path := range files {
		var err error
		switch {
		case filepath.Base(path) == "base.xta":
			continue
		case strings.HasSuffix(path, ".q"):
			err = loadAll("testdata/errors/base.xta", path)
		default:
			err = loadAll(path, "")
		}
		msg := "ok"
		if err != nil {
			msg = err.Error()
			var me *model.Error
			if !asModelError(err, &me) || !me.Pos.IsValid() {
				t.Errorf("%s: the error has no position: %v", path, err)
			}
		}
		b.WriteString(filepath.Base(path) + ": " + msg + "\n")
	}
	golden(t, "errors.golden", b.String())
	if strings.Contains(b.String(), ": ok\n") {
		t.Errorf("a file with an unsupported feature loaded without error:\n%s", b.String())
	}
}

func asModelError(err error, target **model.Error) bool {
	e, ok := err.(*model.Error)
	if ok {
		*target = e
	}
	return ok
}
