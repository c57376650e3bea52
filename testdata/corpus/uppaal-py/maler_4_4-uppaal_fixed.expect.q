/*
[q1] The model's own query q1 (witness replayed concretely; the reference stops at its state limit).
EXPECT: satisfied
*/
E<> Job1.End1 && Job2.End2 && Job4.End4 && Job3.End3
