/*
[q1] The model's own query q1 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
E<> Gate.Occ

/*
[q2] The model's own query q2 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
E<> Train(0).Cross

/*
[q3] The model's own query q3 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
E<> Train(1).Cross

/*
[q4] The model's own query q4 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
E<> Train(0).Cross and Train(1).Stop

/*
[q5] The model's own query q5 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
E<> Train(0).Cross and (forall (i : id_t) i != 0 imply Train(i).Stop)

/*
[q6] The model's own query q6 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
A[] forall (i : id_t) forall (j : id_t) Train(i).Cross && Train(j).Cross imply i == j

/*
[q7] The model's own query q7 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
A[] Gate.list[N] == 0

/*
[q8] The model's own query q8 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(0).Appr --> Train(0).Cross

/*
[q9] The model's own query q9 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(1).Appr --> Train(1).Cross

/*
[q10] The model's own query q10 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(2).Appr --> Train(2).Cross

/*
[q11] The model's own query q11 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(3).Appr --> Train(3).Cross

/*
[q12] The model's own query q12 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(4).Appr --> Train(4).Cross

/*
[q13] The model's own query q13 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
Train(5).Appr --> Train(5).Cross

/*
[q14] The model's own query q14 (the authors' comment in the model states the property; UPPAAL's train-gate demo).
EXPECT: satisfied
*/
A[] not deadlock
