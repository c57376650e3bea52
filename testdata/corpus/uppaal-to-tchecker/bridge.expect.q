/*
[all-safe] All four vikings can reach the safe side (reasoned: the torch alternates sides; any schedule that brings it back works).
EXPECT: satisfied
*/
E<> Viking1.safe and Viking2.safe and Viking3.safe and Viking4.safe

/*
[two-on-bridge] The torch can carry two soldiers.
EXPECT: satisfied
*/
E<> Torch.two

/*
[no-deadlock] Deadlock-free (reasoned: whichever side holds the torch has a soldier that can take it).
EXPECT: satisfied
*/
A[] not deadlock

