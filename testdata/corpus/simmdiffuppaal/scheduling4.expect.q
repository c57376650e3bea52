/*
[q1] The model's own query q1: a bound from the stopwatch over-approximation (UPPAAL gives one too); the same under --order dfs, --subsumption inclusion and --extrapolation m+; the authors state no value.
EXPECT: >=17
*/
inf {Task(0).EndPeriod}: Task(0).wcrt

/*
[q2] The model's own query q2: a bound from the stopwatch over-approximation (UPPAAL gives one too); the same under --order dfs, --subsumption inclusion and --extrapolation m+; the authors state no value.
EXPECT: >=14
*/
inf {Task(1).EndPeriod}: Task(1).wcrt

/*
[q3] The model's own query q3: a bound from the stopwatch over-approximation (UPPAAL gives one too); the same under --order dfs, --subsumption inclusion and --extrapolation m+; the authors state no value.
EXPECT: >=12
*/
inf {Task(2).EndPeriod}: Task(2).wcrt

/*
[q4] The model's own query q4: a bound from the stopwatch over-approximation (UPPAAL gives one too); the same under --order dfs, --subsumption inclusion and --extrapolation m+; the authors state no value.
EXPECT: >=6
*/
inf {Task(3).EndPeriod}: Task(3).wcrt

/*
[q5] The model's own query q5 (Check that semaphores are taken by at most one process at a time.): the stopwatch over-approximation reaches no violation, so none exists; every search option agrees; the authors state nothing.
EXPECT: satisfied
*/
A[] forall(i : sid_t) sum(j : pid_t) Task(j).sema[i] <= 1

/*
[q6] The model's own query q6 (Worst-case response times.): a bound from the stopwatch over-approximation (UPPAAL gives one too); the same under --order dfs, --subsumption inclusion and --extrapolation m+; the authors state no value.
EXPECT: <=17, <=14, <=12, <=6
*/
sup: Task(0).wcrt , Task(1).wcrt, Task(2).wcrt, Task(3).wcrt

/*
[q7] The model's own query q7 (Check that the system is schedulable.): the stopwatch over-approximation reaches no violation, so none exists; every search option agrees; the authors state nothing.
EXPECT: satisfied
*/
A[] forall(i : pid_t) not Task(i).Error
