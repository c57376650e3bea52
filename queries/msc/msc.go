// Package msc draws traces as message sequence charts, in SVG or in an HTML
// page: one lane per process, the locations a process passes through as
// boxes along a vertical time axis (the concrete times of the trace's
// steps), synchronisations as arrows from the sender to the receivers (a
// broadcast fans out to every receiver), internal moves as marks on their
// lane, and the variables a step changes as labels (SVG) or on hover
// (HTML). The output depends only on its input: no map is ranged over, no
// floating-point value is printed, and every name is escaped.
//
// A Chart is built from a queries.Trace (FromTrace); a Document gathers
// charts under headings (one per query, say) and is written by WriteSVG
// or WriteHTML.
package msc

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

// Kind is the kind of a step of a chart.
type Kind int

const (
	// Initial is the first step: the initial state, no move.
	Initial Kind = iota
	// Internal is a move of one process without synchronisation.
	Internal
	// Sync is a binary synchronisation: one sender, one receiver.
	Sync
	// Broadcast is a broadcast synchronisation: one sender and every
	// process that could receive (possibly none).
	Broadcast
)

func (k Kind) String() string {
	switch k {
	case Initial:
		return "initial"
	case Internal:
		return "internal"
	case Sync:
		return "sync"
	case Broadcast:
		return "broadcast"
	}
	return "?"
}

// Step is a state of the trace and the move that entered it.
type Step struct {
	// Time is the concrete time at which the move is taken, Time/Den of
	// the chart; Delay is the time spent in the previous state.
	Time, Delay int64
	Kind        Kind
	// Sender is the lane of the internal edge or of the sending edge (-1
	// for the initial step); Receivers are the lanes of the receiving
	// edges, in move order.
	Sender    int
	Receivers []int
	// Channel is the channel synchronised on (e.g. "b[1]"), "" for an
	// internal move.
	Channel string
	// Edges are the edges of the move, sender first.
	Edges []queries.EdgeLabel
	// Locs is the location of each lane in the state entered.
	Locs []string
	// Changes lists the variables the move changed ("id=1"); for the
	// initial step, every variable with its initial value.
	Changes []string
	// Clocks lists the clock values on entering the state ("x=3/2").
	Clocks []string
}

// Chart is a trace ready to draw.
type Chart struct {
	// Lanes are the processes, in system order.
	Lanes []string
	// Den is the common denominator of the times and delays.
	Den   int64
	Steps []Step
	// FinalDelay is the time spent in the last state, reaching the
	// valuation FinalClocks (the witness point of the trace).
	FinalDelay  int64
	FinalClocks []string
	// Cycle, when positive: the last Cycle moves can repeat forever.
	Cycle int
	// End says why a liveness witness without a cycle ends.
	End string
	// Fail, when not empty, is a move that fails with a model error in
	// the last state (shown after it).
	Fail []queries.EdgeLabel
}

// FromTrace builds the chart of t, a trace of net.
func FromTrace(net *model.Network, t *queries.Trace) *Chart {
	c := &Chart{Den: t.Den, FinalDelay: t.FinalDelay, Cycle: t.Cycle, End: t.End}
	if c.Den <= 0 {
		c.Den = 1
	}
	for _, p := range net.Procs {
		c.Lanes = append(c.Lanes, p.Name)
	}
	var now int64
	for i := range t.Moves {
		now += t.Delays[i]
		s := Step{Time: now, Delay: t.Delays[i], Sender: -1}
		for p, l := range t.Locs[i] {
			s.Locs = append(s.Locs, net.Procs[p].Locations[l].Name)
		}
		for k, v := range t.Vars[i] {
			if i == 0 || t.Vars[i-1][k] != v {
				s.Changes = append(s.Changes, fmt.Sprintf("%s=%d", net.Vars[k].Name, v))
			}
		}
		s.Clocks = clockList(net, t.Clocks[i], c.Den)
		if i == 0 {
			s.Kind = Initial
		} else {
			describeMove(net, t, i, &s)
		}
		c.Steps = append(c.Steps, s)
	}
	c.FinalClocks = clockList(net, t.Final, c.Den)
	return c
}

// describeMove fills the kind, lanes, channel and edges of step i.
func describeMove(net *model.Network, t *queries.Trace, i int, s *Step) {
	m := t.Moves[i].Taken()
	for _, ref := range m {
		s.Edges = append(s.Edges, queries.Label(net, ref))
	}
	if len(m) == 0 {
		s.Kind = Internal
		return
	}
	first := &net.Procs[m[0].Proc].Edges[m[0].Edge]
	s.Sender = int(m[0].Proc)
	if !first.HasSync() {
		s.Kind = Internal
		return
	}
	for _, ref := range m[1:] {
		s.Receivers = append(s.Receivers, int(ref.Proc))
	}
	ch := first.Sync
	if first.SyncExpr != nil {
		// the channel depends on the source state's variables
		env := net.NewEnv()
		env.Vars = append([]int32(nil), t.Vars[i-1]...)
		env.Locs = append([]int32(nil), t.Locs[i-1]...)
		ch = int(first.SyncExpr(env))
		if env.Err != nil || ch < 0 || ch >= len(net.Chans) {
			ch = -1
		}
	}
	s.Kind = Sync
	if ch >= 0 {
		s.Channel = net.Chans[ch].Name
		if net.Chans[ch].Broadcast {
			s.Kind = Broadcast
		}
	} else {
		s.Channel = strings.TrimSuffix(strings.TrimSpace(first.SyncSrc), "!")
		if len(m) != 2 {
			s.Kind = Broadcast
		}
	}
}

func clockList(net *model.Network, vals []int64, den int64) []string {
	var out []string
	for x := 1; x < len(net.Clocks) && x < len(vals); x++ {
		out = append(out, net.Clocks[x].Name+"="+queries.Rat(vals[x], den))
	}
	return out
}

// Section is a heading, lines of notes and a chart (nil: none).
type Section struct {
	Title string
	Notes []string
	Chart *Chart
}

// Document is what WriteSVG and WriteHTML draw: a title and sections.
type Document struct {
	Title    string
	Sections []Section
}

// ResultSection describes a query result: the query, its verdict and, when
// it has one, the chart of its trace.
func ResultSection(net *model.Network, r *queries.Result) Section {
	q := r.Query
	name := q.Name
	if name == "" {
		name = "(formula)"
	}
	s := Section{Title: name + ": " + q.Src}
	verdict := r.Verdict.String()
	if len(r.Values) > 0 {
		var vs []string
		for _, v := range r.Values {
			vs = append(vs, v.Term+" = "+v.String())
		}
		verdict = strings.Join(vs, ", ")
	}
	if q.Expect.Given && q.Unjudged == "" {
		if r.Matches() {
			verdict += " (as expected)"
		} else {
			verdict += " (EXPECTED " + q.Expect.Raw + ")"
		}
	}
	s.Notes = append(s.Notes, verdict)
	if r.Err != nil {
		s.Notes = append(s.Notes, "model error: "+r.Err.Error())
	} else if r.TraceErr != nil {
		s.Notes = append(s.Notes, "no trace: "+r.TraceErr.Error())
	}
	if r.Trace != nil {
		kind := "witness"
		switch r.Verdict {
		case queries.Violated:
			kind = "counterexample"
		case queries.Error:
			kind = "trace to the error"
		}
		s.Notes = append(s.Notes, fmt.Sprintf("%s: %s, concrete, replayed", kind, queries.Transitions(len(r.Trace.Moves)-1)))
		s.Chart = FromTrace(net, r.Trace)
		if r.Err != nil {
			for _, ref := range r.Err.Move {
				s.Chart.Fail = append(s.Chart.Fail, queries.Label(net, ref))
			}
		}
	}
	return s
}

// mulDiv returns a*b/c rounded down, without overflow in the product.
func mulDiv(a, b, c int64) int64 {
	if c == 0 {
		return 0
	}
	x := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	x.Quo(x, big.NewInt(c))
	if !x.IsInt64() {
		return 1 << 40
	}
	return x.Int64()
}
