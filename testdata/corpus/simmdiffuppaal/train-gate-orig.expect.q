/*
[q1] The model's own query q1 (the authors' comment in the model states the property (UPPAAL's train-gate demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Gate.Occ

/*
[q2] The model's own query q2 (the authors' comment in the model states the property (UPPAAL's train-gate demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Train1.Cross

/*
[q3] The model's own query q3 (the authors' comment in the model states the property (UPPAAL's train-gate demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Train2.Cross

/*
[q4] The model's own query q4 (the authors' comment in the model states the property (UPPAAL's train-gate demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Train1.Cross and Train2.Stop

/*
[q5] The model's own query q5 (the authors' comment in the model states the property (UPPAAL's train-gate demo); witness replayed concretely; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
E<> Train1.Cross and Train2.Stop and Train3.Stop and Train4.Stop

/*
[q6] The model's own query q6 (the authors' comment in the model states the property (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] Train1.Cross + Train2.Cross + Train3.Cross + Train4.Cross <= 1

/*
[q7] The model's own query q7 (the authors' comment in the model states the property (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] Queue.list[N-1] == 0

/*
[q8] The model's own query q8 (the authors' comment in the model states the property (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Train1.Appr --> Train1.Cross

/*
[q9] The model's own query q9 (the comment of q8 under the heading Liveness Properties states it for every train (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Train2.Appr --> Train2.Cross

/*
[q10] The model's own query q10 (the comment of q8 under the heading Liveness Properties states it for every train (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Train3.Appr --> Train3.Cross

/*
[q11] The model's own query q11 (the comment of q8 under the heading Liveness Properties states it for every train (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
Train4.Appr --> Train4.Cross

/*
[q12] The model's own query q12 (the authors' comment in the model states the property (UPPAAL's train-gate demo); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] not deadlock
