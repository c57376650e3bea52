/*
[q1] The model's own query q1 (bfs/dfs, lu+/m+/none extrapolation and alu/inclusion subsumption agree; the reference stops at its state limit).
EXPECT: violated
*/
E<> Sched.error
