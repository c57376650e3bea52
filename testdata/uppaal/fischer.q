//This file was generated from (Academic) UPPAAL 4.1.26 (the header UPPAAL writes).

/*
Mutual exclusion: no two processes in cs at once.
EXPECT: satisfied
*/
A[] forall (i:id_t) forall (j:id_t) P(i).cs && P(j).cs imply i == j

/*
Process 1 can enter its critical section.
EXPECT: satisfied
*/
E<> P(1).cs

// Two processes in cs at once (never).
// EXPECT: violated
E<> P(1).cs and \
    P(2).cs

/*
The system never deadlocks.
EXPECT: satisfied
*/
A[] not deadlock
