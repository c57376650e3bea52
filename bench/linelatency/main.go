// Command linelatency prints what moving one cache line between two cores
// costs on this machine now, in nanoseconds: two goroutines pass a counter
// on one line back and forth, so that each step is one transfer of the
// line, as when a worker of the parallel search reads a passed-list entry
// that the other stored moments before (zone's BenchmarkCacheLineTransfer
// measures the same under go test).
//
//	go run ./bench/linelatency
//
// On a virtual machine the figure can change within minutes, as the host
// moves the guest's virtual CPUs between cores that share a cache and
// cores that do not (docs/results.md, "Two workers and the host's core
// placement"), so bench/ab-workers.sh prints it with every round
// (LATENCY=1). It prints the median of five runs of 200,000 transfers.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/tcheck/tcheck/internal/cacheline"
)

func main() {
	if runtime.GOMAXPROCS(0) < 2 {
		fmt.Fprintln(os.Stderr, "linelatency: needs two processors")
		os.Exit(2)
	}
	var ns []float64
	for range 5 {
		ns = append(ns, transfer(200_000))
	}
	slices.Sort(ns)
	fmt.Printf("%.0f\n", ns[len(ns)/2])
}

// transfer passes a counter n times between two goroutines and returns
// the nanoseconds per pass.
func transfer(n int64) float64 {
	start := time.Now()
	cacheline.PingPong(n)
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}
