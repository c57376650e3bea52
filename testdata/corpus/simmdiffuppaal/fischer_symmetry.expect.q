/*
[q1] The model's own query q1 (the authors' comment in the model states the property (UPPAAL's fischer_symmetry demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
A[] (sum(i:pid_t) P(i).cs) <= 1

/*
[q2] The model's own query q2 (the authors' comment in the model states the property (UPPAAL's fischer_symmetry demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
A[] not deadlock
