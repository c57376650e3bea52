package sweep_test

import (
	"context"
	"fmt"
	"os"

	"github.com/tcheck/tcheck/queries/sweep"
)

// Fischer's protocol over two parameters: mutual exclusion holds exactly
// when the waiting delay w is at least the setting delay k = 10.
func Example() {
	src, err := os.ReadFile("../../testdata/fischer.yaml")
	if err != nil {
		panic(err)
	}
	n, _ := sweep.ParseAxis("N=2..3")
	w, _ := sweep.ParseAxis("w=9..10")
	s, err := sweep.New(sweep.Args{
		Model:   sweep.ModelSource{Ref: "fischer.yaml", Name: "fischer.yaml", Src: src},
		Queries: []string{"mutex"},
		Grid:    sweep.Grid{{n, w}},
	})
	if err != nil {
		panic(err)
	}
	points, _ := s.Points()
	results := s.Run(context.Background(), points, sweep.RunOptions{Jobs: 2})
	for _, r := range results {
		fmt.Println(r.Key(), r.Queries[0].Verdict)
	}
	// Output:
	// N=2,w=9 violated
	// N=2,w=10 satisfied
	// N=3,w=9 violated
	// N=3,w=10 satisfied
}
