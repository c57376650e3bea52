/*
[q1] The model's own query q1 (witness replayed concretely; the region-graph reference (package refcheck) agrees).
EXPECT: satisfied
*/
E<> P1.pass
