package zone

import "github.com/tcheck/tcheck/model"

// locationRanks numbers each process's locations in a topological order
// of its automaton: the reverse postorder of a depth-first search from the
// initial location that follows the edges in template order, so that every
// edge but those that close a cycle (back edges) goes from a lower number
// to a higher one. Locations the search does not reach are numbered after
// the others, by searches from each of them in index order.
//
// The Topological order explores the states of the lowest sum of these
// numbers first: a waiting strategy in the sense of Herbreteau and Tran
// ("Improving search order for reachability testing in timed automata",
// FORMATS 2015): a state waits while states that precede it in the
// automata's topological orders are queued, since a path through them may
// bring it a larger zone. Judging "precede" by these numbers is this
// implementation's choice, and unlike their combination it does not serve
// the Ranked order's ranks first (docs/results.md, "The topological
// order", measures both). A back edge lowers the sum; the order is a
// heuristic and never changes what is reachable.
func locationRanks(net *model.Network) [][]int32 {
	ranks := make([][]int32, len(net.Procs))
	for p, proc := range net.Procs {
		n := len(proc.Locations)
		succ := make([][]int, n)
		for i := range proc.Edges {
			e := &proc.Edges[i]
			succ[e.From] = append(succ[e.From], e.To)
		}
		seen := make([]bool, n)
		post := make([]int, 0, n)
		// an iterative search: each frame is a location and the index of
		// its next edge to follow
		type frame struct{ loc, next int }
		var stack []frame
		visit := func(root int) {
			if seen[root] {
				return
			}
			seen[root] = true
			stack = append(stack[:0], frame{root, 0})
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				if f.next < len(succ[f.loc]) {
					to := succ[f.loc][f.next]
					f.next++
					if !seen[to] {
						seen[to] = true
						stack = append(stack, frame{to, 0})
					}
					continue
				}
				post = append(post, f.loc)
				stack = stack[:len(stack)-1]
			}
		}
		visit(proc.Initial)
		reached := len(post)
		for l := range n {
			visit(l)
		}
		r := make([]int32, n)
		// reverse postorder of the initial location's search first, then
		// of the others'
		k := int32(0)
		for i := reached - 1; i >= 0; i-- {
			r[post[i]] = k
			k++
		}
		for i := len(post) - 1; i >= reached; i-- {
			r[post[i]] = k
			k++
		}
		ranks[p] = r
	}
	return ranks
}
