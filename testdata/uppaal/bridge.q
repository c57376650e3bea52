//This file was generated from (Academic) UPPAAL 4.1.26 (the header UPPAAL writes).

/*
[all-cross] All four can cross.
EXPECT: satisfied
*/
E<> Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe

/*
[within-60] All four can cross within 60 minutes.
EXPECT: satisfied
*/
E<> Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe and time <= 60

/*
[within-59] Not within 59 minutes: 60 is the optimum.
EXPECT: violated
*/
E<> Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe and time <= 59

/*
[fastest-crossing] The least time at which all four are across.
EXPECT: 60
*/
inf{Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe}: time

/*
[no-deadlock] Someone can always take the torch.
EXPECT: satisfied
*/
A[] not deadlock
