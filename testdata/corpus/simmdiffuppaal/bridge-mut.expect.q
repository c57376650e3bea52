/*
[q1] The model's own query q1 (a mutant of bridge.xml made by the repository's mutation tool (a new edge anon2 -> anon3 -> unsafe, guards y>=delay replaced by y>=10); the comment copied from bridge.xml says deadlock-free, which the mutation breaks: Viking1 goes back without release! and keeps the torch; counterexample replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: violated
*/
A[] not deadlock

/*
[q2] The model's own query q2 (witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
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
[q5] The model's own query q5 (a mutant of bridge.xml (guards y>=delay replaced by y>=10): Viking4 crosses in 10 < slowest = 25; counterexample replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: violated
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
