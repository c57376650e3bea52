/*
[q1] The model's own query q1 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<>(Process.C)
