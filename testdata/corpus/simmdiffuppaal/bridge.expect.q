/*
[q1] The model's own query q1 (the authors' comment in the model states the property (UPPAAL's bridge demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] not deadlock

/*
[q2] The model's own query q2 (the authors' comment in the model states the property (UPPAAL's bridge demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Viking1.safe

/*
[q3] The model's own query q3 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Viking2.safe

/*
[q4] The model's own query q4 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Viking3.safe

/*
[q5] The model's own query q5 (tcheck's verdict, cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+; the authors state nothing).
EXPECT: satisfied
*/
A[] not (Viking4.safe and time<slowest)

/*
[q6] The model's own query q6 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Viking4.safe imply time>=slowest

/*
[q7] The model's own query q7 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe
