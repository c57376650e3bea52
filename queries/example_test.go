package queries_test

import (
	"fmt"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// Check a formula on Fischer's protocol with a waiting delay shorter than
// the setting delay: mutual exclusion fails, and the counterexample is a
// concrete run that has been replayed against the model.
func ExampleCheck() {
	_, net, err := model.Load("../testdata/fischer.yaml", map[string]int64{"N": 2, "w": 9})
	if err != nil {
		panic(err)
	}
	q, err := queries.Compile(net, model.NewText("A[] !(P(1).cs && P(2).cs)", model.Pos{File: "example"}))
	if err != nil {
		panic(err)
	}
	r := queries.Check(zone.NewSystem(net), []*queries.Query{q}, queries.Options{})[0]
	fmt.Println(r.Verdict, len(r.Trace.Moves)-1, "transitions")
	// Output: violated 6 transitions
}
