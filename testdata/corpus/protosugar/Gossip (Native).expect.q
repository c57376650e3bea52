/*
[q1] The model's own query q1 (witness replayed concretely; the same with --order dfs, --subsumption inclusion and --extrapolation m+; --extrapolation none gives no verdict within 20 s).
EXPECT: satisfied
*/
E<> forall (ID_main : device_range) \
	(forall (ID_secret : device_range) Device(ID_main).secrets[ID_secret] == true) && Device(ID_main).Pending
