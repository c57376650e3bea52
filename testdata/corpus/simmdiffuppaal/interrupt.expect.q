/*
[q1] The model's own query q1 (the authors' comments in the declarations say the model works only once a channel or process priority is uncommented, and every priority is commented out (UPPAAL's interrupt demo); counterexample replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: violated
*/
A[] not env.ERROR
