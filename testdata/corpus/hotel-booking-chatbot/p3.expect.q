/*
[q1] The model's own query q1 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] es.verification imply dm.waiting

/*
[q2] The model's own query q2 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: violated
*/
A<> dm.done

/*
[q3] The model's own query q3 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] not deadlock

/*
[q4] The model's own query q4 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] dm.confirm_reservation imply end_time > start_time
