/*
[q1] The model's own query q1: the stopwatch over-approximation reaches no violation, so none exists; every search option agrees; the authors state nothing.
EXPECT: satisfied
*/
A[] forall(i : pid_t) not Task(i).Error
