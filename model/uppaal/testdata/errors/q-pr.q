// a probabilistic query
Pr[<=10](<> P.b)
