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
[q3] The model's own query q3 (requirement 1): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <1255
*/
sup {ErrStat != 0} : c1

/*
[q4] The model's own query q4 (requirement 1): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <1205
*/
sup {ErrStat == 0 and control.GearChanged} : c1

/*
[q5] The model's own query q5 (requirement 2): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <1255
*/
sup {ErrStat != 0 or (UseCase != 0 and engine.ClutchOpen)} : c2

/*
[q6] The model's own query q6 (requirement 2): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: <900
*/
sup {ErrStat == 0 and UseCase == 0 and control.GearChanged} : c2

/*
[q7] The model's own query q7 (requirement 3): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup {control.CCloseError} : c3

/*
[q8] The model's own query q8 (requirement 4): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup {control.COpenError} : c4

/*
[q9] The model's own query q9 (requirement 5): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup {control.GSetError} : c5

/*
[q10] The model's own query q10 (requirement 6): value cross-checked: the same with --order dfs, --subsumption inclusion, --extrapolation none and m+, and the witness replays; the authors state only the bound of the requirement.
EXPECT: 50
*/
sup {control.GNeuError} : c6

/*
[q11] The model's own query q11 (requirement 7): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.CCloseError imply clutch.ErrorClose

/*
[q12] The model's own query q12 (requirement 8): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.COpenError imply clutch.ErrorOpen

/*
[q13] The model's own query q13 (requirement 9): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.GSetError imply gearbox.ErrorIdle

/*
[q14] The model's own query q14 (requirement 10): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] control.GNeuError imply gearbox.ErrorNeu

/*
[q15] The model's own query q15 (requirement 11): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] engine.ErrorSpeed imply ErrStat != 0

/*
[q16] The model's own query q16 (requirement 12): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] engine.Torque imply clutch.Closed

/*
[q17] The model's own query q17 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.GearR

/*
[q18] The model's own query q18 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.GearN

/*
[q19] The model's own query q19 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear1

/*
[q20] The model's own query q20 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear2

/*
[q21] The model's own query q21 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear3

/*
[q22] The model's own query q22 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear4

/*
[q23] The model's own query q23 (requirement 13): the authors list it as a reachable gear position (doc/ScientificReport.tex); the witness replays.
EXPECT: satisfied
*/
E<> interface.Gear5

/*
[q24] The model's own query q24 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.GearR) imply engine.Torque)

/*
[q25] The model's own query q25 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear1) imply engine.Torque)

/*
[q26] The model's own query q26 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear2) imply engine.Torque)

/*
[q27] The model's own query q27 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear3) imply engine.Torque)

/*
[q28] The model's own query q28 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear4) imply engine.Torque)

/*
[q29] The model's own query q29 (requirement 14): the authors state that every requirement holds (doc/ScientificReport.tex: deadlock-free, all bounded-response properties satisfied).
EXPECT: satisfied
*/
A[] ((control.Gear and interface.Gear5) imply engine.Torque)
