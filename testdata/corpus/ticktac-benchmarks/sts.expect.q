/*
[q1] The model's own query q1 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s; the authors state nothing).
EXPECT: satisfied
*/
A[] forall (i : pid_t) forall (j : pid_t) i != j imply not (A(i).Go and A(j).Go)
