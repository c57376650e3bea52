package zone_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/tcheck/tcheck/internal/cacheline"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

func compile(tb testing.TB, path string, overrides map[string]int64) *model.Network {
	tb.Helper()
	_, net, err := model.Load(path, overrides)
	if err != nil {
		tb.Fatal(err)
	}
	return net
}

// exploreAll explores the whole zone graph and returns the statistics.
func exploreAll(tb testing.TB, net *model.Network, x zone.Extrapolation, sub zone.Subsumption) zone.Result {
	res := zone.Search(zone.NewSystem(net), zone.Options{Extrapolation: x, Subsumption: sub}, func(*zone.Visit) bool { return false })
	if res.Reason != zone.Completed {
		tb.Fatalf("search ended: %v (%v)", res.Reason, res.Err)
	}
	return res
}

// BenchmarkFischer explores the full zone graph of Fischer's protocol
// (testdata/fischer.yaml, TChecker's examples/fischer.sh N 10) with
// Extra_LU+ and local bounds, as for an unreachable property. Reference,
// TChecker 0.8 (tck-reach -a covreach -s bfs) on this machine kind: N=8
// 25,080 zones in 1.9 s, N=9 81,035 in 8.3 s, N=10 260,998 in 45 s. Each
// size runs with inclusion and with aLU subsumption (Options.Subsumption).
//
//	go test -run XXX -bench 'Fischer/N=10/' -benchtime 1x ./zone/
func BenchmarkFischer(b *testing.B) {
	for n := int64(4); n <= 10; n++ {
		for _, sub := range []zone.Subsumption{zone.Inclusion, zone.ALU} {
			b.Run(fmt.Sprintf("N=%d/%v", n, sub), func(b *testing.B) {
				net := compile(b, "../testdata/fischer.yaml", map[string]int64{"N": n})
				var res zone.Result
				for b.Loop() {
					res = exploreAll(b, net, zone.Extrapolation{Local: true}, sub)
				}
				b.ReportMetric(float64(res.Stored), "stored")
				b.ReportMetric(float64(res.PeakMemory)/(1<<20), "peakMiB")
				b.ReportMetric(float64(res.PeakMemory)/float64(max(res.Stored, 1)), "heapB/zone")
			})
		}
	}
}

// BenchmarkCSMACD explores the full zone graph of CSMA/CD
// (testdata/csmacd.yaml, TChecker's examples/csmacd.sh N 808 26).
// Reference, TChecker 0.8: N=8 20,738 zones in 0.8 s, N=10 144,898 in 10 s.
// Each size runs with inclusion and with aLU subsumption.
//
//	go test -run XXX -bench CSMACD -benchtime 1x ./zone/
func BenchmarkCSMACD(b *testing.B) {
	for n := int64(4); n <= 10; n++ {
		for _, sub := range []zone.Subsumption{zone.Inclusion, zone.ALU} {
			b.Run(fmt.Sprintf("N=%d/%v", n, sub), func(b *testing.B) {
				net := compile(b, "../testdata/csmacd.yaml", map[string]int64{"N": n})
				var res zone.Result
				for b.Loop() {
					res = exploreAll(b, net, zone.Extrapolation{Local: true}, sub)
				}
				b.ReportMetric(float64(res.Stored), "stored")
				b.ReportMetric(float64(res.PeakMemory)/(1<<20), "peakMiB")
				b.ReportMetric(float64(res.PeakMemory)/float64(max(res.Stored, 1)), "heapB/zone")
			})
		}
	}
}

// BenchmarkAgreement explores the full zone graph of the agreement model
// (agreement/agreement.yaml, d = 1, other parameters the file's) as for its
// query termination, A[] (exists i Proc(i).wait) imply t <= U (satisfied:
// the whole graph), with Extra_LU+, local bounds and the query's constant
// U = 8 added to the bounds of clock t, with inclusion and with aLU. The
// same exploration as
//
//	go run ./cmd/tcheck verify agreement --set d=1 -q termination --stats
//
// run with
//
//	go test -run XXX -bench Agreement -benchtime 1x ./zone/
func BenchmarkAgreement(b *testing.B) {
	net := compile(b, "../agreement/agreement.yaml", map[string]int64{"d": 1})
	x := zone.Extrapolation{Local: true, ExtraL: make([]int32, len(net.Clocks)), ExtraU: make([]int32, len(net.Clocks))}
	for c := range net.Clocks {
		x.ExtraL[c], x.ExtraU[c] = model.NoBound, model.NoBound
		if net.Clocks[c].Name == "t" {
			x.ExtraL[c], x.ExtraU[c] = 8, 8 // U = (2f-1)D + max(T, 3D), D = d + c2 = 2, T = 5
		}
	}
	for _, sub := range []zone.Subsumption{zone.Inclusion, zone.ALU} {
		b.Run(sub.String(), func(b *testing.B) {
			var res zone.Result
			for b.Loop() {
				res = exploreAll(b, net, x, sub)
			}
			b.ReportMetric(float64(res.Stored), "stored")
			b.ReportMetric(float64(res.Explored), "explored")
			b.ReportMetric(float64(res.PeakMemory)/(1<<20), "peakMiB")
			b.ReportMetric(float64(res.PeakMemory)/float64(max(res.Stored, 1)), "heapB/zone")
		})
	}
}

// BenchmarkWorkers explores the full zone graph of Fischer's protocol
// (N = 9), CSMA/CD (N = 10) and testdata/independent-loops.yaml (N = 4,
// under aLU subsumption: hundreds of zones a discrete part, scanned under
// a shard's lock, so that a worker mostly waits for the other's scan) with
// the sequential driver and with the parallel one at 1, 2 and 4 workers:
// "parallel/1" is the cost of the
// parallel machinery alone (shards, queues, atomics). "twins/2" runs two
// sequential searches at once, in two goroutines that share nothing: its
// time against "sequential" is what the machine gives two searches, so
// "parallel/2" against "twins/2" is the cost of sharing the passed and
// waiting lists between cores (docs/results.md, "What sharing costs").
// Compare the ratios within one run.
//
//	go test -run XXX -bench Workers -benchtime 3x ./zone/
func BenchmarkWorkers(b *testing.B) {
	for _, m := range []struct {
		name, path string
		n          int64
		sub        zone.Subsumption
	}{
		{"fischer-9", "../testdata/fischer.yaml", 9, zone.Inclusion},
		{"csmacd-10", "../testdata/csmacd.yaml", 10, zone.Inclusion},
		{"loops-4", "testdata/independent-loops.yaml", 4, zone.ALU},
	} {
		net := compile(b, m.path, map[string]int64{"N": m.n})
		sys := zone.NewSystem(net)
		visitor := func() zone.Visitor { return func(*zone.Visit) bool { return false } }
		opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, Subsumption: m.sub}
		for _, w := range []int{0, 1, 2, 4} {
			name := m.name + "/sequential"
			if w > 0 {
				name = fmt.Sprintf("%s/parallel/%d", m.name, w)
			}
			b.Run(name, func(b *testing.B) {
				o := opts
				o.Workers = w
				var res zone.Result
				for b.Loop() {
					if w == 0 {
						res = zone.Search(sys, o, visitor())
					} else {
						res = zone.SearchParallelForTest(sys, o, visitor)
					}
				}
				b.ReportMetric(float64(res.Stored), "stored")
				b.ReportMetric(float64(res.Explored), "explored")
			})
		}
		b.Run(m.name+"/twins/2", func(b *testing.B) {
			var res [2]zone.Result
			for b.Loop() {
				var wg sync.WaitGroup
				for i := range res {
					wg.Add(1)
					go func() {
						defer wg.Done()
						res[i] = zone.Search(zone.NewSystem(net), opts, visitor())
					}()
				}
				wg.Wait()
			}
			if res[0].Stored != res[1].Stored {
				b.Fatalf("twin searches stored %d and %d zones", res[0].Stored, res[1].Stored)
			}
			b.ReportMetric(float64(res[0].Stored), "stored")
			b.ReportMetric(float64(res[0].Explored), "explored")
		})
	}
}

// BenchmarkScaleFamilies explores the models of the scale issue where the
// passed list, not the successor computation, dominates: CorSSO (N = 3, 4;
// testdata/corsso.yaml, TChecker's examples/corsso.sh) under inclusion and
// aLU subsumption, and FDDI (N = 8, 12; testdata/fddi.yaml, examples/fddi.sh)
// breadth and depth first, where BFS stores and evicts many zones per
// discrete part.
//
//	go test -run XXX -bench ScaleFamilies -benchtime 1x ./zone/
func BenchmarkScaleFamilies(b *testing.B) {
	type row struct {
		name, path string
		n          int64
		sub        zone.Subsumption
		order      zone.Order
	}
	rows := []row{
		{"corsso", "../testdata/corsso.yaml", 3, zone.Inclusion, zone.BFS},
		{"corsso", "../testdata/corsso.yaml", 3, zone.ALU, zone.BFS},
		{"corsso", "../testdata/corsso.yaml", 4, zone.ALU, zone.BFS},
		{"fddi", "../testdata/fddi.yaml", 8, zone.Inclusion, zone.BFS},
		{"fddi", "../testdata/fddi.yaml", 8, zone.Inclusion, zone.DFS},
		{"fddi", "../testdata/fddi.yaml", 12, zone.Inclusion, zone.BFS},
		{"fddi", "../testdata/fddi.yaml", 12, zone.Inclusion, zone.DFS},
	}
	for _, r := range rows {
		b.Run(fmt.Sprintf("%s/N=%d/%v/%v", r.name, r.n, r.sub, r.order), func(b *testing.B) {
			net := compile(b, r.path, map[string]int64{"N": r.n})
			sys := zone.NewSystem(net)
			var res zone.Result
			for b.Loop() {
				res = zone.Search(sys, zone.Options{Order: r.order, Extrapolation: zone.Extrapolation{Local: true}, Subsumption: r.sub}, func(*zone.Visit) bool { return false })
			}
			if res.Reason != zone.Completed {
				b.Fatalf("search ended: %v", res.Reason)
			}
			b.ReportMetric(float64(res.Stored), "stored")
			b.ReportMetric(float64(res.Explored), "explored")
		})
	}
}

// BenchmarkCacheLineTransfer measures what reading on one core a line
// another core just wrote costs on this machine: two goroutines pass a
// counter on one cache line back and forth, so each op is one transfer
// of the line. A parallel search pays it when a worker reads a
// passed-list entry the other stored moments before (docs/results.md,
// "What sharing costs"; 71–85 ns on the 2-core Intel Xeon).
//
//	go test -run XXX -bench CacheLineTransfer -count 5 ./zone/
func BenchmarkCacheLineTransfer(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("needs two processors")
	}
	b.ResetTimer()
	cacheline.PingPong(int64(b.N))
}

// BenchmarkSymmetry explores the full zone graph of two models with a
// scalar set under the symmetry reduction (Options.Symmetry), where the
// representative of each successor (symmetry.canon) and the stabiliser's
// zones take a quarter to a third of the profile: the agreement model with
// the process identities as a scalar set (agreement/agreement-scalar.yaml,
// f = 1, c1 = c2 = d = 1, as for its query termination without the
// query's constant) and Fischer's protocol with a scalar set
// (queries/testdata/semantics/scalar-fischer.yaml, N = 40).
//
//	go test -run XXX -bench Symmetry -benchtime 3x ./zone/
func BenchmarkSymmetry(b *testing.B) {
	rows := []struct {
		name, path string
		set        map[string]int64
	}{
		{"agreement-scalar", "../agreement/agreement-scalar.yaml", map[string]int64{"f": 1, "c1": 1, "c2": 1, "d": 1}},
		{"scalar-fischer", "../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 40}},
	}
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			net := compile(b, r.path, r.set)
			sys := zone.NewSystem(net)
			var res zone.Result
			for b.Loop() {
				res = zone.Search(sys, zone.Options{Extrapolation: zone.Extrapolation{Local: true}, Subsumption: zone.ALU, Symmetry: true}, func(*zone.Visit) bool { return false })
			}
			if res.Reason != zone.Completed {
				b.Fatalf("search ended: %v (%v)", res.Reason, res.Err)
			}
			b.ReportMetric(float64(res.Stored), "stored")
			b.ReportMetric(float64(res.Explored), "explored")
		})
	}
}
