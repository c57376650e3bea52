package queries

// components returns the strongly connected components of the graph whose
// node v has the successors adj[v]: comp[v] is v's component, numbered
// from 0 in the order Tarjan's algorithm completes them (a component's
// successors come before it), and count is their number (Tarjan,
// "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2),
// 1972). The depth-first search keeps its own stack instead of
// recursing, so a graph that is one long chain (a counter's 20,000
// states) needs no deep call stack, and it runs over slices, not maps.
func components(adj [][]int32) (comp []int32, count int) {
	n := len(adj)
	index := make([]int32, n) // 0: not visited yet; else the visit's number
	low := make([]int32, n)
	comp = make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	type frame struct {
		v    int32
		next int // the next successor of v to look at
	}
	var call []frame
	visited := int32(0)
	visit := func(v int32) {
		visited++
		index[v], low[v] = visited, visited
		stack = append(stack, v)
		onStack[v] = true
		call = append(call, frame{v: v})
	}
	for r := range adj {
		if index[r] != 0 {
			continue
		}
		visit(int32(r))
		for len(call) > 0 {
			top := len(call) - 1
			v := call[top].v
			if k := call[top].next; k < len(adj[v]) {
				call[top].next++
				w := adj[v][k]
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			// every successor of v is done: v closes its component
			// when no node below it on the stack is reachable from it
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(count)
					if w == v {
						break
					}
				}
				count++
			}
			call = call[:top]
			if top > 0 {
				if u := call[top-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
		}
	}
	return comp, count
}

// markPredecessors extends marked to every node from which a marked node
// is reachable, where pred[v] lists v's predecessors (breadth first,
// backwards from the nodes marked on entry).
func markPredecessors(pred [][]int32, marked []bool) {
	var queue []int32
	for v, m := range marked {
		if m {
			queue = append(queue, int32(v))
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range pred[v] {
			if !marked[u] {
				marked[u] = true
				queue = append(queue, u)
			}
		}
	}
}
