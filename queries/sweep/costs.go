package sweep

import (
	"fmt"
	"os"
	"sort"
)

// Costs estimates what each point of a sweep costs, from an earlier run's
// result file, so that Run can start the expensive points first.
//
// With Jobs points at a time in index order, a sweep whose most expensive
// point comes last runs that point alone at the end while the other jobs'
// cores idle: the bundled agreement table (agreement.sweep.yaml, 2 jobs)
// starts its largest point, 19 minutes, after 33 minutes, and spends most
// of its last 19 minutes on one core. Starting the points longest first
// (Graham's LPT rule, "Bounds on multiprocessing timing anomalies", SIAM
// J. Appl. Math. 17(2), 1969: within 4/3 of the best schedule) ends every
// job within about one short point of the others. The order only changes
// when the points start: every point is checked as before and every
// output is in index order, so the results are the same bytes apart from
// time and memory.
type Costs struct {
	// By maps a point's key (Point.Key) to its cost: its elapsed time in
	// nanoseconds, or its stored states when the file has no times (it
	// was written with --stable).
	By map[string]int64
	// Unit is "time" or "states".
	Unit string
}

// CostsFromResults takes the costs of the points of res. A point with a
// model error or no statistics has no cost.
func CostsFromResults(res *Results) *Costs {
	c := &Costs{By: map[string]int64{}, Unit: "states"}
	for _, p := range res.Points {
		if p.Elapsed > 0 {
			c.Unit = "time"
			break
		}
	}
	for _, p := range res.Points {
		v := p.States
		if c.Unit == "time" {
			v = int64(p.Elapsed)
		}
		if v > 0 {
			c.By[p.Key()] = v
		}
	}
	return c
}

// ReadCosts reads the costs from a result file (--format jsonl or json).
// The file may be of another sweep of the same parameters (other queries,
// another grid, an older model): its points are matched by their values.
func ReadCosts(path string) (*Costs, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := ReadResults(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return CostsFromResults(res), nil
}

// Order returns the points in the order to start them: those without a
// cost first, in index order (nothing is known of them, and one that
// turns out long must not start last), then those with a cost, the most
// expensive first, ties in index order. It also returns how many points
// have a cost.
func (c *Costs) Order(points []Point) ([]Point, int) {
	out := append([]Point(nil), points...)
	known := 0
	cost := make(map[int]int64, len(out))
	for _, p := range out {
		if v, ok := c.By[p.Key()]; ok {
			cost[p.Index] = v
			known++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ci, iok := cost[out[i].Index]
		cj, jok := cost[out[j].Index]
		if iok != jok {
			return !iok
		}
		if ci != cj {
			return ci > cj
		}
		return out[i].Index < out[j].Index
	})
	return out, known
}
