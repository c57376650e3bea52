/*
[q1] The model's own query q1 (witness replayed concretely; the reference stops at its state limit).
EXPECT: satisfied
*/
E<> env.ENV5
