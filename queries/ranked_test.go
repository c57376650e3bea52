package queries

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tcheck/tcheck/zone"
)

// TestRankedOrderKeepsVerdicts checks the Ranked search order (Herbreteau
// and Tran, FORMATS 2015; zone.Ranked) against breadth-first search on
// every model under testdata/ with queries and on the agreement model's
// cheapest row, with one worker and with three: the verdicts, the sup/inf
// values and the discrete states stored are the same (the order changes
// which zones are stored along the way, not what is reachable), and every
// trace replays (Check turns one that does not into an error).
func TestRankedOrderKeepsVerdicts(t *testing.T) {
	var paths []string
	for _, pat := range []string{"testdata/semantics/*.yaml", "../testdata/*.yaml", "../testdata/uppaal/*.yaml", "../zone/testdata/search-order-mistake.yaml"} {
		files, err := filepath.Glob(pat)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no models: %v", pat, err)
		}
		paths = append(paths, files...)
	}
	paths = append(paths, "../agreement/agreement.yaml")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, net := loadModel(t, path, nil)
			qs, err := FromFile(net, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			base := checkAll(t, net, qs, Options{Workers: 1})
			if testing.Short() {
				for _, b := range base {
					if b.Stats.Stored > 3000 {
						t.Skip("large instance")
					}
				}
			}
			for _, opts := range []Options{{Order: zone.Ranked, Workers: 1}, {Order: zone.Ranked, Workers: 3}} {
				name := "workers=" + strconv.Itoa(opts.Workers)
				sameAnswers(t, name, "ranked", "bfs", checkAll(t, net, qs, opts), base)
			}
		})
	}
}
