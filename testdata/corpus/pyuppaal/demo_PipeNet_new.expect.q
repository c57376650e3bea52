/*
[q1] The model's own query q1 (witness replayed concretely, with UPPAAL's rule for clock guards on broadcast receivers checked at each step; every search option agrees; the region-graph reference stops at its state limit, the constants reaching 300).
EXPECT: satisfied
*/
E<> Observer.pass
