/*
[deadlock] Deadlock freedom: tcheck's verdict, cross-checked: a deadlock is reached by a concrete, replayed counterexample.
EXPECT: violated
*/
A[] not deadlock

