/*
[q1] The model's own query q1 (the region-graph reference (package refcheck) agrees).
EXPECT: violated
*/
E<> P1.pass && !Monitor1.pass && !Monitor2.pass
