/*
[q1] The model's own query q1 (the authors' comment in the model states the property (UPPAAL's 2doors demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] not (Door1.open and Door2.open)

/*
[q2] The model's own query q2 (the authors' comment in the model states the property (UPPAAL's 2doors demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] (Door1.opening imply User1.w<=31) and \
    (Door2.opening imply User2.w<=31)

/*
[q3] The model's own query q3 (the authors' comment in the model states the property (UPPAAL's 2doors demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Door1.open

/*
[q4] The model's own query q4 (the authors' comment in the model states the property (UPPAAL's 2doors demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Door2.open

/*
[q5] The model's own query q5 (the authors' comment in the model states the property (UPPAAL's 2doors demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Door1.wait --> Door1.open

/*
[q6] The model's own query q6 (the comment of q5 states it for both doors (UPPAAL's 2doors demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Door2.wait --> Door2.open

/*
[q7] The model's own query q7 (the authors' comment in the model states the property (UPPAAL's 2doors demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] not deadlock
