/*
[q1] The model's own query q1 (witness replayed concretely; the region-graph reference (package refcheck) agrees; PyUPPAAL's test_all_patterns finds 4 witness patterns for this query, so the authors rely on it being satisfied).
EXPECT: satisfied
*/
E<> (PPedestrian.Crossing and PCar.Crossing)
