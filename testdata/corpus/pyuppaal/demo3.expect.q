/*
[q1] The model's own query q1 (the region-graph reference (package refcheck) agrees).
EXPECT: satisfied
*/
A[] not deadlock
