/*
[q1] The model's own query q1: counterexample replayed concretely (a stopwatch model: the violation stands only with a replayed run); every search option agrees; the authors state nothing.
EXPECT: violated
*/
A[] forall (i : t_id) not Task(i).Error
