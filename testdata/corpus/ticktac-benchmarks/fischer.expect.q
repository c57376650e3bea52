/*
[q1] The model's own query q1 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] forall (i : pid_t) forall (j : pid_t) i != j imply not (P(i).cs and P(j).cs)

/*
[q2] The model's own query q2 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] !deadlock
