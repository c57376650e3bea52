package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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

// A sweep recorded in a result file as its points finish: a first run
// checks two of the four points and stops (as after Ctrl-C, or a killed
// job); a second session on the same file checks only the two others and
// leaves the file as one run of the whole sweep would.
func ExampleOpenSession() {
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
	h := sweep.Header{Tool: "example", Sweep: s.JSON(len(points))}
	dir, err := os.MkdirTemp("", "sweep")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "results.jsonl")

	// run opens a session of the sweep on the file and checks the points
	// it lacks, stopping after the first max of them.
	run := func(max int) []*sweep.PointResult {
		sess, err := sweep.OpenSession(s, h, points, sweep.Files{Resume: file})
		if err != nil {
			panic(err)
		}
		defer sess.Close()
		fmt.Printf("%d points done, %d to check\n", len(sess.Done), len(sess.Todo))
		stop := make(chan struct{})
		started := 0
		all, err := sess.Run(context.Background(), sweep.RunOptions{
			Jobs: 1,
			Stop: stop,
			OnStart: func(sweep.Point) {
				if started++; started == max {
					close(stop) // start no more points
				}
			},
		})
		if err != nil {
			panic(err)
		}
		return all
	}
	run(2)
	for _, r := range run(-1) {
		fmt.Println(r.Key(), r.Queries[0].Verdict)
	}
	// Output:
	// 0 points done, 4 to check
	// 2 points done, 2 to check
	// N=2,w=9 violated
	// N=2,w=10 satisfied
	// N=3,w=9 violated
	// N=3,w=10 satisfied
}
