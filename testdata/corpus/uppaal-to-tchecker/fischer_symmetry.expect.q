/*
[mutex] At most one process in cs (scalar-set version of fischer.xml, reasoned as there).
EXPECT: satisfied
*/
A[] forall (i : pid_t) forall (j : pid_t) P(i).cs && P(j).cs imply i == j

/*
[cs-reachable] Some process can enter cs.
EXPECT: satisfied
*/
E<> exists (i : pid_t) P(i).cs

/*
[no-deadlock] Deadlock-free.
EXPECT: satisfied
*/
A[] not deadlock

