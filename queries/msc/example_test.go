package msc_test

import (
	"fmt"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/queries/msc"
	"github.com/tcheck/tcheck/zone"
)

// Draw the counterexample of Fischer's protocol with a waiting delay
// shorter than the setting delay: two processes end in cs at time 20.
func ExampleWriteSVG() {
	_, net, err := model.Load("../../testdata/fischer.yaml", map[string]int64{"N": 2, "w": 9})
	if err != nil {
		panic(err)
	}
	q, err := queries.Compile(net, model.NewText("A[] !(P(1).cs && P(2).cs)", model.Pos{File: "example"}))
	if err != nil {
		panic(err)
	}
	r := queries.Check(zone.NewSystem(net), []*queries.Query{q}, queries.Options{Workers: 1})[0]
	c := msc.FromTrace(net, r.Trace)
	for i, s := range c.Steps {
		fmt.Printf("[%d] t=%s %v %s\n", i, queries.Rat(s.Time, c.Den), s.Kind, strings.Join(s.Locs, " "))
	}
	var b strings.Builder
	if err := msc.WriteSVG(&b, &msc.Document{Title: "Fischer's race", Sections: []msc.Section{msc.ResultSection(net, r)}}); err != nil {
		panic(err)
	}
	fmt.Println(strings.Count(b.String(), `<g class="step">`), "steps drawn")
	// Output:
	// [0] t=0 initial A A
	// [1] t=0 internal req A
	// [2] t=0 internal req req
	// [3] t=0 internal wait req
	// [4] t=10 internal cs req
	// [5] t=10 internal cs wait
	// [6] t=20 internal cs cs
	// 7 steps drawn
}
