// Package difftest is tcheck's differential tester (issue 12): it
// generates random networks of timed automata with queries (gen.go) and
// compares, on each (harness.go),
//
//   - tcheck's verdicts and sup and inf values (over clocks and data
//     expressions) with those of an independent reference checker
//     (package refcheck: an explicit region-graph exploration that shares
//     no code with zone/ and dbm/);
//   - tcheck with itself under every option that must not change a
//     verdict (Configs: each extrapolation, depth-first order, full zones,
//     global bounds, the convex hull, and the UPPAAL XML and XTA round trip
//     of the model);
//   - every trace tcheck gives against its replay (Result.TraceErr);
//   - on random symmetric models (GenerateSymmetric: a scalar set, processes
//     instantiated over it, symmetric queries), tcheck with its symmetry
//     reduction against tcheck without it under the same configuration,
//     and both against the reference (Harness.Symmetry,
//     TestDifferentialSymmetric).
//
// The generator draws its choices from a byte string (Source): a seed
// stands for the bytes of a PCG stream, and the fuzz target
// FuzzDifferential hands it the fuzzer's bytes, so that minimising a
// failing input shrinks the model. A generated model that does not
// compile is a failure (a generator bug).
//
// Run-time model errors (an assignment out of range) follow the rule
// documented at run.refExpect; sup queries whose value is infinite are
// checked by the baseline configuration only, with a deadline, unless
// Harness.SlowSupAll (tcheck doubles the clock's bound up to 2^20 on
// them). docs/difftest.md reports the figures and the findings.
//
//	go test ./difftest/                                  # 2,000 seeds, the baseline and 3 rotating configurations each; 300 symmetric ones
//	go test ./difftest/ -run TestDifferentialSymmetric -v -difftest.symseeds 5000 -difftest.stats
//	go test ./difftest/ -run TestDifferential -v -difftest.seeds 20000 -difftest.all -difftest.stats
//	go test ./difftest/ -run XXX -fuzz FuzzDifferential  # fuzzing (FuzzDifferentialSymmetric: symmetric models)
package difftest
