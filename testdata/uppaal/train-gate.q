//This file was generated from (Academic) UPPAAL 4.1.26 (the header UPPAAL writes).

/*
[gate-occupied] Gate can receive (and store in queue) msg's from approaching trains.
EXPECT: satisfied
*/
E<> Gate.Occ

/*
[train0-crosses] Train 0 can reach crossing.
EXPECT: satisfied
*/
E<> Train(0).Cross

/*
[train1-crosses] Train 1 can reach crossing.
EXPECT: satisfied
*/
E<> Train(1).Cross

/*
[cross-while-stopped] Train 0 can be crossing bridge while Train 1 is waiting to cross.
EXPECT: satisfied
*/
E<> Train(0).Cross and Train(1).Stop

/*
[cross-while-all-stopped] Train 0 can cross bridge while the other trains are waiting to cross.
EXPECT: satisfied
*/
E<> Train(0).Cross and (forall (i : id_t) i != 0 imply Train(i).Stop)

/*
[safety] There is never more than one train crossing the bridge (at any time instance).
EXPECT: satisfied
*/
A[] forall (i : id_t) forall (j : id_t) Train(i).Cross && Train(j).Cross imply i == j

/*
[queue-bound] There can never be N elements in the queue (thus the array will not overflow).
EXPECT: satisfied
*/
A[] Gate.list[N] == 0

/*
[no-deadlock] The system is deadlock-free.
EXPECT: satisfied
*/
A[] not deadlock
