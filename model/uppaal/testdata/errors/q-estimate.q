// an expected-value query
E[<=10; 100](max: x)
