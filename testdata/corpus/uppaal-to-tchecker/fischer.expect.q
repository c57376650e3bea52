/*
[mutex] At most one process in cs: Fischer's protocol with the wait guard x > k and the req invariant x <= k (reasoned).
EXPECT: satisfied
*/
A[] forall (i : id_t) forall (j : id_t) P(i).cs && P(j).cs imply i == j

/*
[cs-reachable] P(1) can enter cs (reasoned: alone, it goes A, req, wait, cs).
EXPECT: satisfied
*/
E<> P(1).cs

/*
[no-deadlock] Deadlock-free (reasoned: a process in cs can always leave, and id == 0 lets one in again).
EXPECT: satisfied
*/
A[] not deadlock

