/*
[q1] The model's own query q1 (the authors' comment in the model states the property (UPPAAL's Fischer demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
A[] forall (i:id_t) forall (j:id_t) P(i).cs && P(j).cs imply i == j

/*
[q2] The model's own query q2 (the authors' comment in the model states the property (UPPAAL's Fischer demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
A[] not deadlock

/*
[q3] The model's own query q3 (the authors' comment in the model states the property (UPPAAL's Fischer demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
P(1).req --> P(1).wait
