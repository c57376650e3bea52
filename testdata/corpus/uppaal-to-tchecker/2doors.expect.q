/*
[door1-opens] Door 1 can open (reasoned).
EXPECT: satisfied
*/
E<> Door1.open

/*
[not-both-open] The two doors are never open at the same time (the purpose of the model: a door opens only after the other signals closed; cross-checked with the region-graph reference).
EXPECT: satisfied
*/
A[] not (Door1.open and Door2.open)

/*
[no-deadlock] Deadlock-free (cross-checked with the region-graph reference).
EXPECT: satisfied
*/
A[] not deadlock

