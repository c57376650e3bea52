/*
[both-in-shower] Kim and Gerd do not synchronise, so both can be in the shower at once (reasoned).
EXPECT: satisfied
*/
E<> Kim.Shower && Gerd.Shower

/*
[corridor-bound] The corridor invariant x <= 5 holds (reasoned).
EXPECT: satisfied
*/
A[] Kim.Corridor imply Kim.x <= 5

/*
[shower-time] The longest stay in the shower is the invariant's bound 10 (reasoned).
EXPECT: 10
*/
sup{Kim.Shower}: Kim.x

