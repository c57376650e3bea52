package zone_test

import (
	"fmt"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// Explore the whole zone graph of Fischer's protocol with four processes
// and count the symbolic states stored (the same count as TChecker's).
func ExampleSearch() {
	_, net, err := model.Load("../testdata/fischer.yaml", map[string]int64{"N": 4})
	if err != nil {
		panic(err)
	}
	sys := zone.NewSystem(net)
	opts := zone.Options{Extrapolation: zone.Extrapolation{Kind: zone.ExtraLUPlus, Local: true}}
	res := zone.Search(sys, opts, func(v *zone.Visit) bool { return false })
	fmt.Println(res.Reason, res.Stored)
	// Output: completed 220
}
