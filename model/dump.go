package model

import (
	"fmt"
	"strings"
)

// String formats a clock constraint with clock names taken from n:
// "x <= 3", "0 - x <= -3" is printed as "x >= 3", "x - y < 2". A
// data-dependent bound prints as "<expr>".
func (n *Network) ConstraintString(cn ClockConstraint) string {
	name := func(i int) string {
		if i >= 0 && i < len(n.Clocks) {
			return n.Clocks[i].Name
		}
		return fmt.Sprintf("clock%d", i)
	}
	op := "<="
	if cn.Strict {
		op = "<"
	}
	k := fmt.Sprint(cn.Const)
	if cn.Value != nil {
		k = "<expr>"
	}
	switch {
	case cn.J == 0:
		return fmt.Sprintf("%s %s %s", name(cn.I), op, k)
	case cn.I == 0:
		op = ">="
		if cn.Strict {
			op = ">"
		}
		if cn.Value != nil {
			return fmt.Sprintf("%s %s -<expr>", name(cn.J), op)
		}
		return fmt.Sprintf("%s %s %d", name(cn.J), op, -int64(cn.Const))
	}
	return fmt.Sprintf("%s - %s %s %s", name(cn.I), name(cn.J), op, k)
}

// Dump prints the compiled network in a stable, readable form: variables
// with ranges and initial values, clocks, channels, processes with their
// locations (flags, invariants, local clock bounds) and edges. Tests
// compare it with golden files; people use it to see what a model compiles
// to.
func (n *Network) Dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "network %s\n", n.Name)
	for _, p := range n.Params {
		fmt.Fprintf(&b, "param %s = %d\n", p.Name, p.Value)
	}
	for i, v := range n.Vars {
		kind := "int"
		if v.Bool {
			kind = "bool"
		}
		fmt.Fprintf(&b, "var %d %s %s[%d,%d] = %d\n", i, v.Name, kind, v.Min, v.Max, v.Init)
	}
	for i, c := range n.Clocks {
		if i == 0 {
			continue
		}
		fmt.Fprintf(&b, "clock %d %s (proc %d) L=%s U=%s\n", i, c.Name, c.Proc, boundStr(n.GlobalL[i]), boundStr(n.GlobalU[i]))
	}
	for i, c := range n.Chans {
		var flags []string
		if c.Urgent {
			flags = append(flags, "urgent")
		}
		if c.Broadcast {
			flags = append(flags, "broadcast")
		}
		fmt.Fprintf(&b, "chan %d %s %s\n", i, c.Name, strings.Join(flags, " "))
	}
	for _, d := range n.Diagonals {
		fmt.Fprintf(&b, "diagonal %s\n", n.ConstraintString(d))
	}
	for _, p := range n.Procs {
		fmt.Fprintf(&b, "process %d %s (template %s) initial %s\n", p.Index, p.Name, p.Template, p.Locations[p.Initial].Name)
		for li, l := range p.Locations {
			var flags []string
			if l.Committed {
				flags = append(flags, "committed")
			}
			if l.Urgent {
				flags = append(flags, "urgent")
			}
			var inv []string
			for _, c := range l.Invariant {
				inv = append(inv, n.ConstraintString(c))
			}
			if l.InvData != nil {
				inv = append(inv, "<data>")
			}
			for _, r := range l.Rates {
				if r.Value != nil {
					inv = append(inv, n.Clocks[r.Clock].Name+"' == <data>")
				} else {
					inv = append(inv, fmt.Sprintf("%s' == %d", n.Clocks[r.Clock].Name, r.Const))
				}
			}
			fmt.Fprintf(&b, "  location %d %s", li, l.Name)
			if len(flags) > 0 {
				fmt.Fprintf(&b, " [%s]", strings.Join(flags, " "))
			}
			if len(inv) > 0 {
				fmt.Fprintf(&b, " inv %s", strings.Join(inv, " && "))
			}
			fmt.Fprintf(&b, " out %v", l.Out)
			var bounds []string
			for x := 1; x < len(n.Clocks); x++ {
				if l.L[x] != NoBound || l.U[x] != NoBound {
					bounds = append(bounds, fmt.Sprintf("%s:%s/%s", n.Clocks[x].Name, boundStr(l.L[x]), boundStr(l.U[x])))
				}
			}
			if len(bounds) > 0 {
				fmt.Fprintf(&b, " LU %s", strings.Join(bounds, " "))
			}
			b.WriteString("\n")
		}
		for _, e := range p.Edges {
			fmt.Fprintf(&b, "  edge %d %s -> %s", e.Index, p.Locations[e.From].Name, p.Locations[e.To].Name)
			if len(e.Select) > 0 {
				var s []string
				for _, v := range e.Select {
					s = append(s, fmt.Sprintf("%s=%d", v.Name, v.Value))
				}
				fmt.Fprintf(&b, " select %s", strings.Join(s, ","))
			}
			var g []string
			for _, c := range e.ClockGuard {
				g = append(g, n.ConstraintString(c))
			}
			if e.Guard != nil {
				g = append(g, "<data>")
			}
			if len(g) > 0 {
				fmt.Fprintf(&b, " guard %s", strings.Join(g, " && "))
			}
			if e.HasSync() {
				dir := "?"
				if e.Send {
					dir = "!"
				}
				if e.Sync >= 0 {
					fmt.Fprintf(&b, " sync %s%s", n.Chans[e.Sync].Name, dir)
				} else {
					fmt.Fprintf(&b, " sync <expr>%s", dir)
				}
			}
			if e.Update != nil {
				fmt.Fprintf(&b, " update {%s}", e.UpdateSrc)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func boundStr(v int32) string {
	if v == NoBound {
		return "-"
	}
	return fmt.Sprint(v)
}
