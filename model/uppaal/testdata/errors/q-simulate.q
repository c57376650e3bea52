// a simulation query
simulate [<=10] { x }
