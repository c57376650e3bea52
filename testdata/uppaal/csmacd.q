//This file was generated from (Academic) UPPAAL 4.1.26 (the header UPPAAL writes).

/*
[collision] Two stations can collide.
EXPECT: satisfied
*/
E<> Bus.Collision

/*
[two-sending] Two stations can be sending at once...
EXPECT: satisfied
*/
E<> Sender(0).Transm and Sender(1).Transm

/*
[only-in-collision] ...but only while the bus is in collision.
EXPECT: satisfied
*/
A[] Sender(0).Transm and Sender(1).Transm imply Bus.Collision

/*
[no-deadlock]
EXPECT: satisfied
*/
A[] not deadlock
