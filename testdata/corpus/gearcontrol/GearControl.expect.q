/*
[q1] The model's own query q1 (enhanced requirement 1): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] (ErrStat == 0) imply not deadlock

/*
[q2] The model's own query q2 (enhanced requirement 2): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] (ErrStat == 0 and UseCase == 0) imply not deadlock

/*
[q3] The model's own query q3 (requirement 1): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v1 imply c1 <= 1500

/*
[q4] The model's own query q4 (requirement 2): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v2 imply c2 <= 1000

/*
[q5] The model's own query q5 (requirement 3): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v3 imply c3 <= 200

/*
[q6] The model's own query q6 (requirement 4): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v4 imply c4 <= 200

/*
[q7] The model's own query q7 (requirement 5): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v5 imply c5 <= 350

/*
[q8] The model's own query q8 (requirement 6): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v6 imply c6 <= 200

/*
[q9] The model's own query q9 (requirement 7): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.CCloseError imply clutch.ErrorClose

/*
[q10] The model's own query q10 (requirement 8): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.COpenError imply clutch.ErrorOpen

/*
[q11] The model's own query q11 (requirement 9): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.GSetError imply gearbox.ErrorIdle

/*
[q12] The model's own query q12 (requirement 10): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.GNeuError imply gearbox.ErrorNeu

/*
[q13] The model's own query q13 (requirement 11): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] engine.ErrorSpeed imply ErrStat != 0

/*
[q14] The model's own query q14 (requirement 12): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] engine.Torque imply clutch.Closed

/*
[q15] The model's own query q15 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.GearR

/*
[q16] The model's own query q16 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.GearN

/*
[q17] The model's own query q17 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear1

/*
[q18] The model's own query q18 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear2

/*
[q19] The model's own query q19 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear3

/*
[q20] The model's own query q20 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear4

/*
[q21] The model's own query q21 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear5

/*
[q22] The model's own query q22 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.GearR) imply engine.Torque)

/*
[q23] The model's own query q23 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear1) imply engine.Torque)

/*
[q24] The model's own query q24 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear2) imply engine.Torque)

/*
[q25] The model's own query q25 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear3) imply engine.Torque)

/*
[q26] The model's own query q26 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear4) imply engine.Torque)

/*
[q27] The model's own query q27 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear5) imply engine.Torque)

/*
[q28] The model's own query q28 (requirement 15): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] v15 imply c15 <= 900

/*
[q29] The model's own query q29 (requirement 16): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> v16 imply c16 > 899

/*
[q30] The model's own query q30 (deadlock free): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] (deadlock imply ErrStat != 0)

/*
[q31] The model's own query q31 (sup requirement 1): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <1205
*/
sup{v1}:c1

/*
[q32] The model's own query q32 (sup requirement 2): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <900
*/
sup{v2}:c2

/*
[q33] The model's own query q33 (sup requirement 3): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup{v3}:c3

/*
[q34] The model's own query q34 (sup requirement 4): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup{v4}:c4

/*
[q35] The model's own query q35 (sup requirement 5): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup{v5}:c5

/*
[q36] The model's own query q36 (sup requirement 6): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: none
*/
sup{v6}:c6

/*
[q37] The model's own query q37 (sup requirement 15): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <900
*/
sup{v15}:c15

/*
[q38] The model's own query q38 (sup requirement 16): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <900
*/
sup{v16}:c16
