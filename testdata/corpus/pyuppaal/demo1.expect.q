/*
[q1] The model's own query q1 (counterexample replayed concretely; the region-graph reference (package refcheck) agrees).
EXPECT: violated
*/
A[] not deadlock
