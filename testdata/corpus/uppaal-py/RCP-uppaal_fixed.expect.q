/*
[q1] The model's own query q1 (witness replayed concretely; bfs/dfs, lu+/m+/none extrapolation and alu/inclusion subsumption agree). The model has a lower bound in an invariant (ckN1 >= 0), which tcheck accepts since issue 17's corpus.
EXPECT: satisfied
*/
E<> S1o.S1oEnd
