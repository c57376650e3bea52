/*
[q1] The model's own query q1 (the authors' uppaal_model/README.md lists it as property P15, fulfilling requirement R09; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.guest_X_age imply c_read<n_children

/*
[q2] The model's own query q2 (the authors' uppaal_model/README.md lists it as property P14, fulfilling requirements R08, R09 (written there with || where the model's query has &&); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.done imply (c_read==n_children && a_read==n_adults)

/*
[q3] The model's own query q3 (the authors' uppaal_model/README.md lists it as property P13, fulfilling requirement R08; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
dm.guest_X_name --> dm.done

/*
[q4] The model's own query q4 (the authors' uppaal_model/README.md lists it as property P12, fulfilling requirement R07 (written there with || where the model's query has &&); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
(dm.waiting && n_rooms>n_available) --> dm.adjust

/*
[q5] The model's own query q5 (the authors' uppaal_model/README.md lists it as property P11, fulfilling requirement R07; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.proceed imply n_available>=n_rooms

/*
[q6] The model's own query q6 (the authors' uppaal_model/README.md lists it as property P10, fulfilling requirement R07; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.adjust imply (n_rooms > n_available)

/*
[q7] The model's own query q7 (the authors' uppaal_model/README.md lists it as property P09, fulfilling requirement R07; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.adjust imply !vacancy

/*
[q8] The model's own query q8 (the authors' uppaal_model/README.md lists it as property P08, fulfilling requirement R07; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.proceed imply vacancy

/*
[q9] The model's own query q9 (the authors' uppaal_model/README.md lists it as property P07, fulfilling requirements R06, R07 (written there with rm.verifying); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
rm.verification--> (dm.proceed || dm.adjust)

/*
[q10] The model's own query q10 (the authors' uppaal_model/README.md lists it as property P06, fulfilling requirement R05 (written there with || where the model's query has &&); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.done imply (n_rooms > 0 && n_rooms <= 4)

/*
[q11] The model's own query q11 (the authors' uppaal_model/README.md lists it as property P05, fulfilling requirement R04 (written there with || where the model's query has &&); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.done imply (n_children >= 0 && n_children <= 6)

/*
[q12] The model's own query q12 (the authors' uppaal_model/README.md lists it as property P04, fulfilling requirement R03 (written there with || where the model's query has &&); the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] dm.done imply (n_adults > 0 && n_adults <= 4)

/*
[q13] The model's own query q13 (the authors' uppaal_model/README.md lists it as property P03, fulfilling requirement R02; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A<> dm.check_out

/*
[q14] The model's own query q14 (the authors' uppaal_model/README.md lists it as property P02, fulfilling requirement R01; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A<> dm.check_in

/*
[q15] The model's own query q15 (the authors' uppaal_model/README.md lists it as property P01; the same with --order dfs, --subsumption inclusion, --extrapolation none and m+).
EXPECT: satisfied
*/
A[] not deadlock
