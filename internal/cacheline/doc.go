// Package cacheline measures what moving one cache line between two cores
// costs: two goroutines pass a counter on one line back and forth, so that
// each pass is one transfer of the line, as when a worker of the parallel
// search reads a passed-list entry that another stored moments before
// (docs/results.md, "What sharing costs" and "Two workers and the host's
// core placement"). bench/linelatency prints it; zone's
// BenchmarkCacheLineTransfer times it under go test.
package cacheline
