/*
[deadlock] Deadlock freedom: tcheck's verdict, cross-checked: the region-graph reference agrees.
EXPECT: satisfied
*/
A[] not deadlock

